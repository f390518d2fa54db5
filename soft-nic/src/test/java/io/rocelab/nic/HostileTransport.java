package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.codec.testkit.HostileFrames;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Transport frames an attacker on b's Ethernet writes at a {@link HostileRig}, each with a valid
 * ICRC: in the name of b's peer (its MAC, IP and QPN) most of the time, else from another address,
 * to another QPN or with another P_Key; requests of any opcode (those of the QP's transport mostly,
 * any other, undefined codes) at PSNs near what b's responder expects or anywhere; RETH and
 * AtomicETH at and beyond the bounds of every MR of both NICs, with their keys or none; payloads
 * and PadCnt that fit or lie; acknowledgements, NAKs, RNR NAKs, ATOMIC ACKs and READ responses of
 * any opcode for PSNs b sent, is about to send or never will; CNPs. A fifth of them then get an
 * envelope as well: VLAN tags, IPv4 options, IP and UDP lengths that lie, truncation.
 */
final class HostileTransport {
    private static final Opcode[] ALL_KNOWN = known();
    private static final Opcode[] RESPONSES = {Opcode.RC_ACKNOWLEDGE, Opcode.RC_ATOMIC_ACKNOWLEDGE,
        Opcode.RC_RDMA_READ_RESPONSE_FIRST, Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, Opcode.RC_RDMA_READ_RESPONSE_LAST,
        Opcode.RC_RDMA_READ_RESPONSE_ONLY};

    private final HostileRig rig;
    private final Random random;
    private final Opcode[] own;

    HostileTransport(HostileRig rig, long seed) {
        this.rig = rig;
        this.random = new Random(seed);
        int base = switch (rig.type) {
            case RC -> Opcode.RC_BASE;
            case UC -> Opcode.UC_BASE;
            default -> Opcode.UD_BASE;
        };
        own = java.util.Arrays.stream(ALL_KNOWN).filter(o -> (o.code() & 0xE0) == base).toArray(Opcode[]::new);
    }

    private static Opcode[] known() {
        List<Opcode> out = new ArrayList<>();
        for (int c = 0; c < 256; c++) {
            if (Opcode.of(c).isKnown()) {
                out.add(Opcode.of(c));
            }
        }
        return out.toArray(Opcode[]::new);
    }

    /** The next hostile frame. */
    byte[] next() {
        int what = random.nextInt(100);
        RoceFrame f;
        if (what < 50) {
            f = request();
        } else if (what < 90) {
            f = response();
        } else {
            f = peerFrame(Opcode.CNP, random.nextInt(1 << 24));
        }
        byte[] frame = encode(f);
        return random.nextInt(5) == 0 ? envelope(frame) : frame;
    }

    private RoceFrame request() {
        int pick = random.nextInt(100);
        Opcode op = pick < 75 ? own[random.nextInt(own.length)]
                : pick < 95 ? ALL_KNOWN[random.nextInt(ALL_KNOWN.length)] : Opcode.of(random.nextInt(256));
        int expected = rig.b.qp.expectedPsn();
        int psn = random.nextInt(4) == 0 ? random.nextInt(1 << 24) : Psn.add(expected, random.nextInt(24) - 12);
        return peerFrame(op, psn);
    }

    private RoceFrame response() {
        Opcode op = RESPONSES[random.nextInt(RESPONSES.length)];
        int next = rig.b.qp.sendPsn();
        int psn = switch (random.nextInt(4)) {
            case 0 -> random.nextInt(1 << 24);
            case 1 -> Psn.add(next, random.nextInt(8)); // never sent
            default -> Psn.add(next, -1 - random.nextInt(160)); // sent, perhaps long acknowledged
        };
        return peerFrame(op, psn);
    }

    /** {@code op} at {@code psn} in the name of b's peer, every extension header filled with something hostile. */
    private RoceFrame peerFrame(Opcode op, int psn) {
        int dest = switch (random.nextInt(20)) {
            case 0 -> random.nextInt(1 << 24);
            case 1 -> SoftNic.GSI_QPN;
            default -> rig.b.qp.qpn();
        };
        int srcIp = random.nextInt(20) == 0 ? HostileRig.IP_A + 1 + random.nextInt(4) : HostileRig.IP_A;
        RoceFrame f = new RoceFrame().ethernet(HostileRig.MAC_B, HostileRig.MAC_A).ipv4(srcIp, HostileRig.IP_B)
                .udp(0xC000 | random.nextInt(0x4000), 4791).opcode(op).destQp(dest).psn(psn)
                .ackReq(random.nextBoolean()).solicited(random.nextInt(4) == 0);
        if (random.nextInt(30) == 0) {
            f.pkey(random.nextInt(0x10000));
        }
        if (random.nextInt(30) == 0) {
            f.dscpEcn(26, 3);
        }
        int payload = payloadLength();
        f.payload(bytes(payload));
        if (random.nextInt(4) == 0) {
            f.padCount(random.nextInt(4)); // whatever the payload's length says
        }
        Target t = target();
        long length = dmaLength(t);
        f.reth(t.va, t.rkey, length);
        Target at = target();
        f.atomicEth(random.nextInt(3) == 0 ? at.va : at.va & ~7L, at.rkey, random.nextLong(), random.nextLong());
        f.aeth(syndrome(), random.nextInt(1 << 24));
        f.atomicAckEth(random.nextLong());
        f.immDt(random.nextInt());
        f.ieth(target().rkey);
        f.deth(random.nextInt(4) == 0 ? random.nextInt() : HostileRig.QKEY,
                random.nextInt(4) == 0 ? random.nextInt(1 << 24) : rig.a.qp.qpn());
        f.feth(random.nextInt());
        return f;
    }

    private int payloadLength() {
        int mtu = HostileRig.MTU;
        return switch (random.nextInt(10)) {
            case 0 -> 0;
            case 1 -> 1 + random.nextInt(7);
            case 2 -> mtu;
            case 3 -> mtu - 1 - random.nextInt(3);
            case 4 -> mtu + 1 + random.nextInt(64); // over the path MTU
            case 5 -> 8;
            default -> random.nextInt(mtu + 1);
        };
    }

    private int syndrome() {
        return switch (random.nextInt(6)) {
            case 0 -> AethSyndrome.ack(random.nextInt(32));
            case 1 -> AethSyndrome.ACK_NO_CREDIT;
            case 2 -> AethSyndrome.rnrNak(random.nextInt(32));
            case 3 -> AethSyndrome.nak(NakCode.values()[random.nextInt(NakCode.values().length - 1)]);
            default -> random.nextInt(256); // reserved values included
        };
    }

    /** A remote address and key: in, at or beyond an MR of either NIC, or anywhere. */
    private record Target(long va, int rkey, long regionLength) {
    }

    private Target target() {
        List<GuardedMemory> all = new ArrayList<>(rig.b.regions());
        all.addAll(rig.a.regions());
        GuardedMemory g = all.get(random.nextInt(all.size()));
        int rkey = switch (random.nextInt(10)) {
            case 0 -> random.nextInt();
            case 1 -> 0;
            case 2 -> all.get(random.nextInt(all.size())).mr.rkey();
            default -> g.mr.rkey();
        };
        long start = g.mr.addr();
        long end = start + g.mr.length();
        long va = switch (random.nextInt(10)) {
            case 0 -> start - 1 - random.nextInt(16);
            case 1 -> start;
            case 2 -> end - 1 - random.nextInt(16);
            case 3 -> end;
            case 4 -> end + random.nextInt(64);
            case 5 -> random.nextLong();
            case 6 -> -8L;
            default -> start + random.nextInt(g.mr.length());
        };
        return new Target(va, rkey, g.mr.length());
    }

    private long dmaLength(Target t) {
        return switch (random.nextInt(9)) {
            case 0 -> 0;
            case 1 -> t.regionLength;
            case 2 -> t.regionLength + 1;
            case 3 -> 0xFFFF_FFFFL;
            case 4 -> 0x8000_0000L;
            case 5 -> random.nextInt(64);
            default -> random.nextInt(3 * HostileRig.MTU);
        };
    }

    private byte[] encode(RoceFrame f) {
        ByteBuf b = f.encode(Unpooled.buffer().alloc());
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    /** VLAN tags, IPv4 options, lengths that lie, or the end cut off; checksums and ICRC resealed. */
    private byte[] envelope(byte[] frame) {
        switch (random.nextInt(5)) {
            case 0 -> {
                int n = 1 + random.nextInt(3);
                int[] tpids = new int[n];
                int[] tcis = new int[n];
                for (int i = 0; i < n; i++) {
                    tpids[i] = HostileFrames.TPIDS[random.nextInt(HostileFrames.TPIDS.length)];
                    tcis[i] = random.nextInt(2) == 0 ? random.nextInt(8) << 13 : random.nextInt(0x10000);
                }
                return HostileFrames.withVlanTags(frame, tpids, tcis);
            }
            case 1 -> {
                byte[] options = bytes(4 * random.nextInt(11));
                return HostileFrames.withIpv4Options(frame, options);
            }
            case 2 -> {
                int ip = random.nextInt(3) == 0 ? random.nextInt(0x10000) : frame.length - 14 + random.nextInt(64) - 32;
                int udp = random.nextBoolean() ? -1 : random.nextInt(0x10000);
                return HostileFrames.withLengths(frame, ip & 0xFFFF, udp);
            }
            case 3 -> {
                byte[] cut = HostileFrames.truncated(frame, random.nextInt(frame.length));
                return random.nextBoolean() ? cut : HostileFrames.reseal(cut);
            }
            default -> {
                byte[] m = frame.clone();
                int at = 14 + random.nextInt(m.length - 14);
                m[at] = (byte) random.nextInt(256);
                if (at >= 14 + 20 + 8 && at < 14 + 20 + 8 + Bth.LENGTH) {
                    return HostileFrames.reseal(m); // a BTH field: the attacker signs it
                }
                return random.nextBoolean() ? m : HostileFrames.reseal(m);
            }
        }
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
