package io.rocelab.sw.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.fabric.testing.SinkPort;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.stats.PortCounters;

/**
 * The whole switch pipeline (parse, classify, route with ECMP hash, MMU admission, egress queue,
 * WRED check, ETS, shaper, transmit) behind {@link SinkPort}s, driven like {@link QueueCopyFloor}.
 */
final class SwitchUnderBench implements FrameSink {
    private final SoftSwitch sw;
    private final SinkPort[] ports;

    SwitchUnderBench(SwitchConfig config, Scheduler scheduler, ByteBufAllocator alloc) {
        sw = new SoftSwitch(config, scheduler, alloc, 1);
        ports = new SinkPort[config.ports().size()];
        for (int i = 0; i < ports.length; i++) {
            ports[i] = new SinkPort(config.ports().get(i).name());
            sw.attach(config.ports().get(i).name(), ports[i]);
        }
    }

    @Override
    public void receive(int port, ByteBuf frame) {
        ports[port].deliver(frame);
    }

    @Override
    public long transmitted() {
        long n = 0;
        for (SinkPort p : ports) {
            n += p.sentFrames;
        }
        return n;
    }

    @Override
    public long dropped() {
        long n = 0;
        for (int i = 0; i < ports.length; i++) {
            n += sw.counters(i).totalDrops();
        }
        return n;
    }

    /** @return PFC pause frames the switch sent (should stay 0: the benchmark never congests it) */
    long pfcSent() {
        long n = 0;
        for (int i = 0; i < ports.length; i++) {
            PortCounters c = sw.counters(i);
            for (long v : c.txPfc) {
                n += v;
            }
        }
        return n;
    }

    /** @return the deepest any egress queue has been, in bytes (0 or one frame: the shaper never held traffic) */
    long deepestQueue() {
        long d = 0;
        for (int i = 0; i < ports.length; i++) {
            for (int q = 0; q < 8; q++) {
                d = Math.max(d, sw.egress(i).queue(q).watermarkBytes());
            }
        }
        return d;
    }

    /** @return packet contexts ever allocated (flat once warm: no per-frame allocation) */
    int contexts() {
        return sw.contextsAllocated();
    }
}
