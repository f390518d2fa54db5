package io.rocelab.sw.bench;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.testing.SinkPort;
import java.util.ArrayDeque;

/**
 * The floor for the switch's forwarding rate (docs/design.md §9): the same frames merely moved from an
 * ingress queue to the egress queue of the next port and sent out, on the same thread, with no
 * parsing, classification, lookup, buffer accounting or scheduling. Port {@code i} forwards to
 * port {@code (i + 1) % n}, exactly as the switch benchmark's routes do. ArrayDeques reach their
 * size in the warm-up, then allocate nothing.
 */
final class QueueCopyFloor implements FrameSink {
    private final ArrayDeque<ByteBuf>[] ingress;
    private final ArrayDeque<ByteBuf>[] egress;
    private final SinkPort[] ports;

    @SuppressWarnings("unchecked")
    QueueCopyFloor(int n) {
        ingress = new ArrayDeque[n];
        egress = new ArrayDeque[n];
        ports = new SinkPort[n];
        for (int i = 0; i < n; i++) {
            ingress[i] = new ArrayDeque<>(1024);
            egress[i] = new ArrayDeque<>(1024);
            ports[i] = new SinkPort("floor" + i);
        }
    }

    @Override
    public void receive(int port, ByteBuf frame) {
        ingress[port].add(frame);
        ByteBuf f = ingress[port].poll();
        int out = port + 1 == ports.length ? 0 : port + 1;
        egress[out].add(f);
        ports[out].send(egress[out].poll());
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
        return 0;
    }
}
