package io.rocelab.sw.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.fabric.testing.CapturingPort;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.SwitchConfig;
import java.util.List;

/** A switch in virtual time with a {@link CapturingPort} on every port: frames in, frames out. */
public final class CapturingSwitch {
    public final VirtualTimeScheduler time = new VirtualTimeScheduler();
    public final SoftSwitch sw;
    public final CapturingPort[] ports;

    public CapturingSwitch(SwitchConfig config) {
        sw = new SoftSwitch(config, time, ByteBufAllocator.DEFAULT, 1);
        ports = new CapturingPort[config.ports().size()];
        for (int i = 0; i < ports.length; i++) {
            ports[i] = new CapturingPort(config.ports().get(i).name());
            sw.attach(config.ports().get(i).name(), ports[i]);
        }
    }

    /** Delivers {@code frame} on port {@code in} and runs the switch for 100 µs. */
    public void deliver(int in, ByteBuf frame) {
        ports[in].deliver(frame);
        time.runFor(100_000);
    }

    /** @return what port {@code p} sent since the last call; the caller releases it */
    public List<ByteBuf> sent(int p) {
        return ports[p].take();
    }

    /** Releases whatever the ports still hold. */
    public void close() {
        for (CapturingPort p : ports) {
            CapturingPort.releaseAll(p.take());
        }
    }
}
