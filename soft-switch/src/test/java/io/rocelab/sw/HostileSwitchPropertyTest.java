package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.testkit.HostileBudget;
import io.rocelab.codec.testkit.HostileFrames;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Hostile frames at a soft switch (docs/hostile-input.md): a 4-port switch with a host on each
 * port, in virtual time, takes from host 0 (and now and then host 3) RoCEv2 frames with valid
 * ICRCs of any opcode to routed and bridged destinations, in VLAN stacks, with IPv4 options and
 * lying IP and UDP lengths, cut short; PFC with random vectors and quanta, ARP and ICMPv6 of any
 * shape, runts, jumbos over the port MTU, random source MACs (MAC flooding) and random bytes.
 * After each run: nothing escaped; the switch counted every frame it got, and dropped runts and
 * frames over the MTU; the FDB is within its size; once the queues drained, the buffer
 * accounting (every pool, PG and queue) is back to 0; no buffer leaked ({@link HostileBudget});
 * and ordinary routed traffic between two hosts, and from the attacker's port, still goes
 * through.
 */
@AddLifecycleHook(HostileBudget.class)
class HostileSwitchPropertyTest {
    private static final int PORTS = 4;
    private static final int MTU = 9100;
    private static final int FDB_SIZE = 256;
    private static final long MS = 1_000_000L;

    @Property(tries = 5, seed = "20205", shrinking = ShrinkingMode.OFF)
    void aSwitchUnderAttack(@ForAll long seed) {
        ConfigBuilder cb = Lab.routes(new ConfigBuilder(PORTS, 100), PORTS)
            .switchField("fdb_table_size", String.valueOf(FDB_SIZE));
        // ACLs that read every header the matcher knows, on the attacked ports: they count and mirror, never drop
        com.fasterxml.jackson.databind.node.ObjectNode root = cb.root();
        root.withObject("/ACL_TABLE").putObject("SEE_ALL").put("type", "L3").putArray("ports").add("Ethernet0")
            .add("Ethernet12");
        root.withObject("/ACL_TABLE").putObject("SEE_ALL_V6").put("type", "L3V6").put("stage", "egress")
            .putArray("ports").add("Ethernet0").add("Ethernet4").add("Ethernet8").add("Ethernet12");
        root.withObject("/ACL_TABLE").putObject("EVERFLOW").put("type", "MIRROR").putArray("ports").add("Ethernet0");
        root.withObject("/ACL_RULE").putObject("SEE_ALL|SYN").put("PRIORITY", "3").put("PACKET_ACTION", "FORWARD")
            .put("TCP_FLAGS", "0x02/0x12").put("L4_DST_PORT_RANGE", "0-65535");
        root.withObject("/ACL_RULE").putObject("SEE_ALL|UDP").put("PRIORITY", "2").put("PACKET_ACTION", "FORWARD")
            .put("IP_PROTOCOL", "17").put("L4_SRC_PORT_RANGE", "1-65535").put("SRC_IP", "0.0.0.0/0").put("DSCP", "26");
        root.withObject("/ACL_RULE").putObject("SEE_ALL_V6|ANY").put("PRIORITY", "1").put("PACKET_ACTION", "FORWARD")
            .put("SRC_IPV6", "::/0").put("DST_IPV6", "ff02::/16").put("L4_SRC_PORT", "4791");
        root.withObject("/ACL_RULE").putObject("EVERFLOW|ROCE").put("PRIORITY", "1")
            .put("MIRROR_INGRESS_ACTION", "span").put("L4_DST_PORT", "4791");
        root.withObject("/MIRROR_SESSION").putObject("span").put("type", "SPAN").put("dst_port", "Ethernet4");
        Lab lab = new Lab(cb.build());
        SoftSwitch sw = lab.sw;
        Random random = new Random(seed);
        int frames = HostileBudget.frames(4_000);
        long[] thrown = new long[PORTS];
        long[] runts = new long[PORTS];
        long[] jumbos = new long[PORTS];
        for (int i = 0; i < frames; i++) {
            int port = random.nextInt(8) == 0 ? 3 : 0;
            byte[] frame = next(random);
            lab.links.get(port).portA().send(Unpooled.wrappedBuffer(frame));
            thrown[port]++;
            runts[port] += frame.length < 60 ? 1 : 0;
            jumbos[port] += frame.length > MTU + 18 ? 1 : 0;
            lab.time.runFor(random.nextInt(1_500));
        }
        HostileBudget.thrown(frames);
        lab.time.runFor(50 * MS); // pauses run out (65535 quanta at 100 Gb/s: 336 us), queues drain
        for (int p = 0; p < PORTS; p++) {
            assertEquals(thrown[p], sw.counters(p).rxFrames, "port " + p + " counted every frame it got");
            assertEquals(runts[p], sw.counters(p).drops(DropReason.UNDERSIZE), "port " + p + ": every runt dropped");
            assertEquals(jumbos[p], sw.counters(p).drops(DropReason.OVERSIZE), "port " + p + ": every jumbo dropped");
            for (DropReason r : DropReason.values()) {
                HostileBudget.outcome("drop_" + r.name().toLowerCase(), sw.counters(p).drops(r));
            }
            HostileBudget.outcome("tx_frames", sw.counters(p).txFrames);
            assertEquals(0, sw.queuedBytes(p), "port " + p + " queues empty");
            for (int pg = 0; pg < 8; pg++) {
                assertEquals(0, sw.mmu().pg(p, pg).used(), "port " + p + " PG " + pg + " accounting back to 0");
            }
            for (int q = 0; q < 8; q++) {
                assertEquals(0, sw.mmu().queueBytes(p, q), "port " + p + " queue " + q + " accounting back to 0");
            }
        }
        for (int pool = 0; pool < sw.mmu().poolCount(); pool++) {
            assertEquals(0, sw.mmu().poolUsed(pool), "pool " + sw.mmu().poolName(pool) + " back to 0");
        }
        assertTrue(sw.fdb().size() <= FDB_SIZE, "the FDB within its size: " + sw.fdb().size());
        HostileBudget.outcome("fdb_learn_refused", sw.fdb().learnRefused());
        sw.aclCounters().forEach(c -> HostileBudget.outcome("acl_" + c.rule().toLowerCase(), c.packets()));
        // ordinary traffic still goes through: routed from host 1 to host 2, and from host 0 to host 3
        for (int[] pair : new int[][] {{1, 2}, {0, 3}}) {
            long before = lab.hosts.get(pair[1]).rxFrames;
            lab.flow(pair[0], pair[1], 26, 1, 0xC000 + pair[0], 1000);
            for (int i = 0; i < 10; i++) {
                lab.hosts.get(pair[0]).sendOne();
            }
            lab.time.runFor(MS);
            assertEquals(before + 10, lab.hosts.get(pair[1]).rxFrames, "host " + pair[0] + " to host " + pair[1]
                + " after the attack");
        }
        lab.drainAndClose();
    }

    /** One hostile frame. */
    static byte[] next(Random random) {
        return switch (random.nextInt(12)) {
            case 0, 1, 2 -> roce(random);
            case 3 -> envelope(random, roce(random));
            case 4 -> HostileFrames.pfc(random.nextInt(4) == 0 ? mac(random) : MacAddress.PAUSE_MULTICAST, mac(random),
                random.nextInt(4) == 0 ? random.nextInt(0x10000) : 0x0101, random.nextInt(0x10000), quanta(random),
                random.nextInt(5) == 0 ? 14 + random.nextInt(60) : 60);
            case 5 -> HostileFrames.arp(random.nextBoolean() ? MacAddress.BROADCAST : mac(random), mac(random),
                random.nextInt(4) == 0 ? random.nextInt(0x10000) : 1,
                random.nextInt(4) == 0 ? random.nextInt(0x10000) : EtherType.IPV4, random.nextInt(256),
                random.nextInt(256), random.nextInt(0x10000), mac(random), random.nextInt(), mac(random),
                random.nextInt(), 14 + random.nextInt(60));
            case 6 -> {
                byte[] icmp = new byte[random.nextInt(64)];
                random.nextBytes(icmp);
                byte[] dst = random.nextBoolean() ? Ipv6.parse("ff02::1") : bytes(random, 16);
                yield HostileFrames.icmpv6(HostileFrames.multicastMac(dst), mac(random), bytes(random, 16), dst,
                    random.nextInt(256), icmp, random.nextInt(4) == 0 ? random.nextInt(0x10000) : icmp.length,
                    random.nextBoolean());
            }
            case 7 -> HostileFrames.truncated(roce(random), random.nextInt(60)); // runts
            case 8 -> {
                byte[] jumbo = Arrays.copyOf(roce(random), MTU + 18 + 1 + random.nextInt(1000));
                yield random.nextBoolean() ? jumbo : HostileFrames.withLengths(jumbo, jumbo.length - 14, -1);
            }
            case 9 -> {
                byte[] g = bytes(random, random.nextInt(300));
                if (g.length >= 12) {
                    Unpooled.wrappedBuffer(g).setLong(0, dst(random) << 16);
                }
                yield g;
            }
            default -> {
                byte[] f = roce(random); // MAC flooding: a new source MAC
                Unpooled.wrappedBuffer(f).setShort(6, random.nextInt(0x10000)).setInt(8, random.nextInt() & ~0x0100_0000);
                yield f;
            }
        };
    }

    private static long mac(Random random) {
        return random.nextLong() & 0xFFFF_FFFF_FFFFL;
    }

    private static long dst(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> MacAddress.BROADCAST;
            case 1 -> mac(random);
            case 2 -> Lab.hostMac(random.nextInt(PORTS));
            default -> MacAddress.parse(ConfigBuilder.ROUTER_MAC);
        };
    }

    private static int[] quanta(Random random) {
        int[] q = new int[8];
        for (int i = 0; i < 8; i++) {
            q[i] = random.nextInt(3) == 0 ? 0xFFFF : random.nextInt(0x10000);
        }
        return q;
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** A RoCEv2 frame with a valid ICRC, to a host or through the router, of any opcode and size. */
    private static byte[] roce(Random random) {
        Opcode op = Opcode.of(random.nextInt(8) == 0 ? random.nextInt(256) : random.nextInt(0x18));
        int dstIp = random.nextInt(4) == 0 ? random.nextInt() : Lab.hostIp(random.nextInt(PORTS));
        RoceFrame f = new RoceFrame().ethernet(dst(random), Lab.hostMac(random.nextInt(PORTS)))
            .ipv4(Lab.hostIp(random.nextInt(PORTS)), dstIp).udp(0xC000 | random.nextInt(0x4000), 4791)
            .dscpEcn(random.nextInt(64), random.nextInt(4)).ttl(random.nextInt(256)).opcode(op)
            .destQp(random.nextInt(1 << 24)).psn(random.nextInt(1 << 24)).payload(bytes(random, random.nextInt(4200)))
            .reth(random.nextLong(), random.nextInt(), random.nextInt()).atomicEth(random.nextLong(), random.nextInt(),
                random.nextLong(), random.nextLong()).aeth(random.nextInt(256), random.nextInt(1 << 24))
            .atomicAckEth(random.nextLong()).immDt(random.nextInt()).ieth(random.nextInt())
            .deth(random.nextInt(), random.nextInt(1 << 24)).feth(random.nextInt());
        if (random.nextInt(4) == 0) {
            f.padCount(random.nextInt(4));
        }
        ByteBuf b = f.encode(Unpooled.buffer().alloc());
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    /** VLAN stacks, IPv4 options, lying lengths, or the end cut off; checksums and ICRC resealed. */
    private static byte[] envelope(Random random, byte[] frame) {
        switch (random.nextInt(4)) {
            case 0 -> {
                int n = 1 + random.nextInt(4);
                int[] tpids = new int[n];
                int[] tcis = new int[n];
                for (int i = 0; i < n; i++) {
                    tpids[i] = HostileFrames.TPIDS[random.nextInt(HostileFrames.TPIDS.length)];
                    tcis[i] = random.nextInt(0x10000);
                }
                return HostileFrames.withVlanTags(frame, tpids, tcis);
            }
            case 1 -> {
                return HostileFrames.withIpv4Options(frame, bytes(random, 4 * random.nextInt(11)));
            }
            case 2 -> {
                return HostileFrames.withLengths(frame, random.nextInt(0x10000),
                    random.nextBoolean() ? -1 : random.nextInt(0x10000));
            }
            default -> {
                return HostileFrames.reseal(HostileFrames.truncated(frame, 14 + random.nextInt(frame.length - 14)));
            }
        }
    }
}
