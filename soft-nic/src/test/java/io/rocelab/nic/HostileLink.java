package io.rocelab.nic;

import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.testkit.HostileFrames;
import java.util.Arrays;
import java.util.Random;

/**
 * Frames below the transport an attacker on b's Ethernet writes at a {@link HostileRig}: PFC with
 * any class-enable vector, quanta, opcode and length, to the MAC control group, b's MAC or another;
 * ARP of any shape, mostly asking for b's address (never in the name of b's peer: ARP spoofing of
 * the peer is out of scope, as for any host); ICMPv6 to b's solicited-node group, all-nodes or b's
 * MAC, neighbour solicitations and advertisements for b's addresses or others, with hop limits,
 * codes, lengths and checksums right or wrong; runts (any frame cut under 60 bytes, down to
 * nothing); jumbos over b's MTU and up to 10000 bytes; RoCE frames of {@link HostileTransport}
 * in VLAN stacks, with IPv4 options, with IP lengths that lie; and bytes of any EtherType.
 */
final class HostileLink {
    private final HostileRig rig;
    private final HostileTransport transport;
    private final Random random;
    private final byte[][] ownIpv6;

    HostileLink(HostileRig rig, long seed) {
        this.rig = rig;
        this.transport = new HostileTransport(rig, seed + 1);
        this.random = new Random(seed);
        SoftNic b = rig.b.nic;
        ownIpv6 = new byte[][] {b.gid(SoftNic.GID_INDEX_LINK_LOCAL).toBytes(),
            b.gid(SoftNic.GID_INDEX_FIRST_IPV6).toBytes()};
    }

    /** The next hostile frame. */
    byte[] next() {
        return switch (random.nextInt(10)) {
            case 0, 1 -> pfc();
            case 2, 3 -> arp();
            case 4, 5 -> icmpv6();
            case 6 -> HostileFrames.truncated(transport.next(), random.nextInt(60));
            case 7 -> jumbo();
            case 8 -> envelope();
            default -> garbage();
        };
    }

    private long dstMac() {
        return switch (random.nextInt(6)) {
            case 0 -> MacAddress.BROADCAST;
            case 1 -> random.nextLong() & 0xFFFF_FFFF_FFFFL;
            default -> HostileRig.MAC_B;
        };
    }

    private byte[] pfc() {
        long dst = switch (random.nextInt(4)) {
            case 0 -> HostileRig.MAC_B;
            case 1 -> random.nextLong() & 0xFFFF_FFFF_FFFFL;
            default -> MacAddress.PAUSE_MULTICAST;
        };
        int opcode = switch (random.nextInt(6)) {
            case 0 -> 0x0001;
            case 1 -> random.nextInt(0x10000);
            default -> 0x0101;
        };
        int[] quanta = new int[8];
        for (int i = 0; i < 8; i++) {
            quanta[i] = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> 0xFFFF;
                default -> random.nextInt(256);
            };
        }
        int length = random.nextInt(5) == 0 ? 14 + random.nextInt(60) : 60;
        return HostileFrames.pfc(dst, HostileRig.MAC_A + 1, opcode, random.nextInt(0x10000), quanta, length);
    }

    private byte[] arp() {
        int htype = random.nextInt(5) == 0 ? random.nextInt(0x10000) : 1;
        int ptype = random.nextInt(5) == 0 ? random.nextInt(0x10000) : EtherType.IPV4;
        int hlen = random.nextInt(5) == 0 ? random.nextInt(256) : 6;
        int plen = random.nextInt(5) == 0 ? random.nextInt(256) : 4;
        int op = random.nextInt(4) == 0 ? random.nextInt(0x10000) : 1 + random.nextInt(2);
        int senderIp = random.nextInt();
        if (senderIp == HostileRig.IP_A) {
            senderIp++;
        }
        int target = random.nextInt(3) == 0 ? random.nextInt() : HostileRig.IP_B;
        int length = random.nextInt(4) == 0 ? random.nextInt(80) : 60;
        return HostileFrames.arp(dstMac(), random.nextLong() & 0xFEFF_FFFF_FFFFL, htype, ptype, hlen, plen, op,
                random.nextLong() & 0xFFFF_FFFF_FFFFL, senderIp, random.nextLong() & 0xFFFF_FFFF_FFFFL, target, length);
    }

    private byte[] icmpv6() {
        byte[] target = random.nextInt(3) == 0 ? randomAddress() : ownIpv6[random.nextInt(ownIpv6.length)];
        byte[] dst = switch (random.nextInt(3)) {
            case 0 -> HostileFrames.solicitedNode(target);
            case 1 -> io.rocelab.codec.header.Ipv6.parse("ff02::1");
            default -> ownIpv6[random.nextInt(ownIpv6.length)];
        };
        long ethDst = random.nextInt(4) == 0 ? HostileRig.MAC_B : HostileFrames.multicastMac(dst);
        int type = switch (random.nextInt(6)) {
            case 0 -> random.nextInt(256);
            case 1, 2 -> 136;
            default -> 135;
        };
        int len = random.nextInt(4) == 0 ? random.nextInt(64) : 24 + 8 * random.nextInt(3);
        byte[] icmp = new byte[len];
        random.nextBytes(icmp);
        if (len >= 24) {
            icmp[0] = (byte) type;
            icmp[1] = (byte) (random.nextInt(8) == 0 ? random.nextInt(256) : 0);
            System.arraycopy(target, 0, icmp, 8, 16);
            if (len >= 32) {
                icmp[24] = (byte) (random.nextBoolean() ? 1 : 2); // source or target link-layer address
                icmp[25] = (byte) random.nextInt(3); // option length in 8 bytes: 0 is invalid
            }
        }
        int payloadLength = random.nextInt(4) == 0 ? random.nextInt(0x10000) : len;
        int hopLimit = random.nextInt(6) == 0 ? random.nextInt(256) : 255;
        byte[] src = random.nextInt(6) == 0 ? new byte[16] : randomAddress();
        return HostileFrames.icmpv6(ethDst, random.nextLong() & 0xFEFF_FFFF_FFFFL, src, dst, hopLimit, icmp,
                payloadLength, random.nextInt(6) != 0);
    }

    private byte[] randomAddress() {
        byte[] a = new byte[16];
        random.nextBytes(a);
        return a;
    }

    private byte[] jumbo() {
        byte[] frame = transport.next();
        int length = 4096 + 60 + random.nextInt(10_000 - 4096 - 60);
        byte[] big = Arrays.copyOf(frame, length);
        for (int i = frame.length; i < length; i++) {
            big[i] = (byte) random.nextInt(256);
        }
        if (random.nextBoolean() && frame.length > 60 && frame[12] == 0x08 && frame[13] == 0 && frame[14] == 0x45) {
            // a RoCE frame whose lengths say so: IP, UDP and ICRC over all of it
            int udp = HostileFrames.l3Offset(big) + 20;
            return HostileFrames.withLengths(big, length - 14, length - udp);
        }
        return big;
    }

    private byte[] envelope() {
        byte[] frame = random.nextInt(4) == 0 ? arp() : transport.next();
        if (frame.length < 14) {
            return frame;
        }
        int n = 1 + random.nextInt(4);
        int[] tpids = new int[n];
        int[] tcis = new int[n];
        for (int i = 0; i < n; i++) {
            tpids[i] = HostileFrames.TPIDS[random.nextInt(HostileFrames.TPIDS.length)];
            tcis[i] = random.nextBoolean() ? random.nextInt(8) << 13 : random.nextInt(0x10000);
        }
        return HostileFrames.withVlanTags(frame, tpids, tcis);
    }

    private byte[] garbage() {
        byte[] g = new byte[random.nextInt(200)];
        random.nextBytes(g);
        if (g.length >= 14) {
            io.netty.buffer.Unpooled.wrappedBuffer(g).setLong(0, dstMac() << 16);
            if (random.nextBoolean()) {
                int[] types = {EtherType.IPV4, EtherType.IPV6, EtherType.ARP, EtherType.MAC_CONTROL, EtherType.VLAN};
                int t = types[random.nextInt(types.length)];
                g[12] = (byte) (t >> 8);
                g[13] = (byte) t;
            }
        }
        return g;
    }
}
