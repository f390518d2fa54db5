package io.rocelab.perftest.nic;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import java.net.InetSocketAddress;

/**
 * What a soft NIC is plugged into: the thread that owns it and the port its frames leave by.
 * Closing it releases what it opened (a UDP socket, an event loop), and nothing it was handed.
 */
public interface NicAttachment extends AutoCloseable {

    /** The owner thread of the NIC (and of the port). */
    Scheduler scheduler();

    /** The port the NIC sends and receives frames on. */
    FramePort port();

    /** A short description for messages ("frame-over-UDP 127.0.0.1:40000 -> 127.0.0.1:40001"). */
    String describe();

    @Override
    void close();

    /**
     * A frame-over-UDP port (qemu's socket netdev format) on its own event loop: frames are
     * received on {@code localPort} and sent to {@code host:remotePort}.
     */
    static NicAttachment udpFrame(String name, int localPort, String host, int remotePort) {
        RealTimeScheduler scheduler = RealTimeScheduler.start(name);
        try {
            InetSocketAddress remote = new InetSocketAddress(host, remotePort);
            if (remote.isUnresolved()) {
                throw new IllegalArgumentException("--udp-frame: cannot resolve " + host);
            }
            UdpFramePort.Builder b = UdpFramePort.builder().name(name);
            if (remote.getAddress().isLoopbackAddress()) {
                b.localPort(localPort);
            } else {
                b.localAddress(new InetSocketAddress(localPort));
            }
            UdpFramePort port = b.remoteAddress(remote).open(scheduler);
            String text = "frame-over-UDP " + port.localAddress() + " -> " + remote;
            return new NicAttachment() {
                @Override
                public Scheduler scheduler() {
                    return scheduler;
                }

                @Override
                public FramePort port() {
                    return port;
                }

                @Override
                public String describe() {
                    return text;
                }

                @Override
                public void close() {
                    try {
                        port.close();
                    } finally {
                        scheduler.close();
                    }
                }
            };
        } catch (RuntimeException e) {
            scheduler.close();
            throw e;
        }
    }
}
