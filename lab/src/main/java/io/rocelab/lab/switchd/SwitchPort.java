package io.rocelab.lab.switchd;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.raw.RawEthernetPort;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;

/**
 * A switch port's attachment opened on the switch's owner thread: the {@link FramePort} the switch
 * sends and receives on, a line for the user, and what closing it releases.
 *
 * @param spec        what the user asked for
 * @param port        the open port
 * @param description e.g. {@code frame-over-UDP 127.0.0.1:40010 -> 127.0.0.1:40000}
 * @param counters    the attachment's own counters (frames sent and received, drops at the socket)
 * @param closer      releases the port
 */
record SwitchPort(PortSpec spec, FramePort port, String description, CounterSet<?> counters, AutoCloseable closer) {

    /**
     * Opens what {@code spec} names on the switch's loop.
     *
     * @throws IllegalArgumentException in one line, when it cannot be opened (address in use, ...)
     */
    static SwitchPort open(PortSpec spec, RealTimeScheduler owner) {
        switch (spec.kind()) {
            case UDP:
                return udp(spec, owner);
            case RAW:
                return raw(spec, owner);
            default:
                throw new IllegalArgumentException("--port " + spec.port() + ": kind " + spec.kind() + " is not supported");
        }
    }

    private static SwitchPort raw(PortSpec spec, RealTimeScheduler owner) {
        try {
            RawEthernetPort p = RawEthernetPort.open(spec.port(), spec.iface(), owner, spec.backend());
            return new SwitchPort(spec, p, p.describe(), p.counters(), p);
        } catch (IOException e) {
            throw new IllegalArgumentException("--port " + spec.port() + ": " + e.getMessage(), e);
        }
    }

    private static SwitchPort udp(PortSpec spec, RealTimeScheduler owner) {
        InetSocketAddress remote = new InetSocketAddress(spec.host(), spec.remote());
        if (remote.isUnresolved()) {
            throw new IllegalArgumentException("--port " + spec.port() + ": cannot resolve " + spec.host());
        }
        // a switch drops runts: a frame-over-UDP peer (a qemu VM) does not pad its 42-byte ARP as a wire would
        UdpFramePort.Builder b = UdpFramePort.builder().name(spec.port()).padShortFrames(true);
        if (remote.getAddress().isLoopbackAddress()) {
            b.localPort(spec.local());
        } else {
            b.localAddress(new InetSocketAddress(spec.local()));
        }
        UdpFramePort p;
        try {
            p = b.remoteAddress(remote).open(owner);
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException("--port " + spec.port() + ": cannot receive on UDP port " + spec.local()
                + " (" + e.getCause().getMessage() + ")", e);
        }
        return new SwitchPort(spec, p, "frame-over-UDP " + p.localAddress() + " -> " + remote, p.counters(), p);
    }
}
