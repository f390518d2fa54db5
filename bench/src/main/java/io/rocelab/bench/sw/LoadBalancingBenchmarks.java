package io.rocelab.bench.sw;

import io.rocelab.sw.config.ArsConfig;
import io.rocelab.sw.forward.EcmpGroup;
import io.rocelab.sw.forward.FlowHash;
import io.rocelab.sw.forward.FlowletBalancer;
import io.rocelab.sw.forward.HashBalancer;
import io.rocelab.sw.forward.LoadBalancer;
import io.rocelab.sw.forward.PathChanges;
import io.rocelab.sw.forward.PerPacketBalancer;
import io.rocelab.sw.forward.PortQuality;
import io.rocelab.sw.forward.PortView;
import io.rocelab.sw.pipeline.PacketContext;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The switch's per-packet cost of choosing an ECMP member in each load-balancing mode: the seeded
 * 5-tuple hash every mode computes, then the mode's {@link LoadBalancer} over an 8-member group,
 * for one packet per operation: 1,024 RoCE flows (UDP source ports) take turns sending 64 KB
 * messages of 16 packets each, the switch's clock moving 82 ns a packet (a 4 KB frame at 400 Gb/s),
 * so the first packet of each message starts a new flowlet (the flow was idle for 1.3 ms), and the
 * chosen port's bytes sent grow with each. {@link LoadBalancingBench} runs all four modes in one JMH run and prints each beside static
 * ECMP.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 8, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class LoadBalancingBenchmarks {
    static final int MEMBERS = 8;
    private static final int FLOWS = 1024;
    private static final long PACKET_NANOS = 82;

    @Param({"ecmp", "flowlet", "flowlet-quality", "per-packet"})
    public String mode;

    private Ports ports;
    private EcmpGroup group;
    private LoadBalancer balancer;
    private final PacketContext ctx = new PacketContext();
    private long now;
    private int packet;

    /** Eight 400 Gb/s ports, their queues a few packets deep, their bytes sent counted by the benchmark. */
    static final class Ports implements PortView {
        final long[] queued = new long[MEMBERS];
        final long[] sent = new long[MEMBERS];

        @Override
        public boolean isUp(int port) {
            return true;
        }

        @Override
        public long queuedBytes(int port) {
            return queued[port];
        }

        @Override
        public long transmittedBytes(int port) {
            return sent[port];
        }

        @Override
        public long speedBitsPerSecond(int port) {
            return 400_000_000_000L;
        }

        @Override
        public int portCount() {
            return MEMBERS;
        }
    }

    @Setup
    public void setup() {
        ports = new Ports();
        for (int p = 0; p < MEMBERS; p++) {
            ports.queued[p] = 4096L * (p % 3);
        }
        int[] ifaces = new int[MEMBERS];
        long[] macs = new long[MEMBERS];
        for (int p = 0; p < MEMBERS; p++) {
            ifaces[p] = p;
            macs[p] = 0x02_00_00_00_00_10L + p;
        }
        group = new EcmpGroup(ifaces, macs);
        PathChanges changes = new PathChanges();
        PortQuality quality = new PortQuality(ports, ArsConfig.Profile.DEFAULT);
        balancer = switch (mode) {
            case "ecmp" -> new HashBalancer(ports);
            case "flowlet" -> FlowletBalancer.queueOnly(5_000, ports, changes);
            case "flowlet-quality" -> FlowletBalancer.byQuality(5_000, 512, quality, 0xFF, ports, changes);
            case "per-packet" -> new PerPacketBalancer(quality, 0, 1, ports, changes);
            default -> throw new IllegalArgumentException(mode);
        };
        ctx.tc = 3;
        ctx.lossless = true;
    }

    @Benchmark
    public int choose() {
        now += PACKET_NANOS;
        int flow = (++packet >>> 4) & (FLOWS - 1);
        long hash = FlowHash.of(7, 0x0A00_0001 + (flow & 15), 0x0A09_0101, 17, 0xC000 + flow, 4791);
        int member = balancer.withoutHash(group, ports);
        if (member == EcmpGroup.MANY) {
            member = balancer.select(group, hash, ctx, now);
        }
        ports.sent[member] += 4096;
        return member;
    }
}
