package io.rocelab.lab.captures;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.codec.capture.PcapWriter;
import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference captures in {@code captures/}: small, deterministic exchanges built with the
 * codec, one per opcode family, over IPv4, IPv6 and 802.1Q, plus ECN/CNP and PFC. They show what
 * each kind of packet looks like on the wire and are checked by {@code rocelab decode} and tshark.
 * Regenerate with {@code ./rocelab reference-captures captures}.
 */
public final class ReferenceCaptures {
    static final int PMTU = 1024;
    private static final int REQ_QPN = 0x11;
    private static final int RESP_QPN = 0x12;
    private static final int RKEY = 0x0000_1b2c;
    private static final long VA = 0x0000_7f00_1000_0000L;

    private final Path dir;
    private final Host a = new Host("host-a", "02:00:00:00:00:0a", "192.0.2.10", "2001:db8::a", 0x1000);
    private final Host b = new Host("host-b", "02:00:00:00:00:0b", "192.0.2.11", "2001:db8::b", 0x2000);
    private final List<Path> written = new ArrayList<>();

    public ReferenceCaptures(Path dir) {
        this.dir = dir;
    }

    /** Writes every reference capture into the directory; returns the files written. */
    public List<Path> writeAll() throws IOException {
        Files.createDirectories(dir);
        rcSend();
        rcWrite();
        rcRead();
        rcAtomic();
        rcNaks();
        udUc();
        ecnCnp();
        pfc();
        return List.copyOf(written);
    }

    private Conversation pcap(String name) throws IOException {
        Path file = dir.resolve(name);
        written.add(file);
        return new Conversation(PcapWriter.create(file), "eth0");
    }

    private static byte[] pattern(int length, int seed) {
        byte[] p = new byte[length];
        for (int i = 0; i < length; i++) {
            p[i] = (byte) (seed + i * 7);
        }
        return p;
    }

    /** Segments a message of {@code length} bytes by the path MTU: FIRST/MIDDLE.../LAST or ONLY. */
    private static int segments(int length) {
        return Math.max(1, (length + PMTU - 1) / PMTU);
    }

    private static byte[] segment(byte[] message, int i) {
        int from = i * PMTU;
        return java.util.Arrays.copyOfRange(message, from, Math.min(message.length, from + PMTU));
    }

    private void rcSend() throws IOException {
        try (Conversation c = pcap("rc_send_ipv4.pcap")) {
            arp(c);
            byte[] message = pattern(2500, 1);
            int psn = 100;
            int n = segments(message.length);
            for (int i = 0; i < n; i++) {
                Opcode op = i == 0 ? Opcode.RC_SEND_FIRST : i == n - 1 ? Opcode.RC_SEND_LAST : Opcode.RC_SEND_MIDDLE;
                c.write(c.frame(a, b, REQ_QPN, RESP_QPN, op, psn + i).payload(segment(message, i))
                        .ackReq(i == n - 1), null);
            }
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, psn + n - 1)
                    .aeth(AethSyndrome.ACK_NO_CREDIT, 1), "coalesced ACK for the three-packet SEND");
            psn += n;
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_SEND_ONLY_WITH_IMMEDIATE, psn).immDt(0x12345678)
                    .payload(pattern(64, 9)).ackReq(true).solicited(true), null);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, psn)
                    .aeth(AethSyndrome.ACK_NO_CREDIT, 2), null);
            psn++;
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_SEND_ONLY_WITH_INVALIDATE, psn).ieth(RKEY)
                    .payload(pattern(30, 3)).ackReq(true), null);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, psn)
                    .aeth(AethSyndrome.ACK_NO_CREDIT, 3), null);
        }
    }

    private void rcWrite() throws IOException {
        try (Conversation c = pcap("rc_write_ipv4.pcap")) {
            byte[] message = pattern(3000, 5);
            int psn = 0xFFFFFE; // the PSN wraps inside this message
            int n = segments(message.length);
            for (int i = 0; i < n; i++) {
                Opcode op = i == 0 ? Opcode.RC_RDMA_WRITE_FIRST
                        : i == n - 1 ? Opcode.RC_RDMA_WRITE_LAST : Opcode.RC_RDMA_WRITE_MIDDLE;
                var f = c.frame(a, b, REQ_QPN, RESP_QPN, op, (psn + i) & 0xFFFFFF).payload(segment(message, i))
                        .ackReq(i == n - 1);
                if (i == 0) {
                    f.reth(VA, RKEY, message.length);
                }
                c.write(f, i == 1 ? "PSN wrapped from 0xffffff to 0" : null);
            }
            int last = (psn + n - 1) & 0xFFFFFF;
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, last)
                    .aeth(AethSyndrome.ACK_NO_CREDIT, 1), null);
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, last + 1)
                    .reth(VA + 4096, RKEY, 16).immDt(0xcafe).payload(pattern(16, 2)).ackReq(true), null);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, last + 1)
                    .aeth(AethSyndrome.ACK_NO_CREDIT, 2), null);
        }
    }

    private void rcRead() throws IOException {
        try (Conversation c = pcap("rc_read_ipv6.pcap")) {
            c.ipv6();
            int length = 2500;
            byte[] data = pattern(length, 11);
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_RDMA_READ_REQUEST, 500).reth(VA, RKEY, length)
                    .ackReq(true), null);
            int n = segments(length);
            for (int i = 0; i < n; i++) {
                Opcode op = i == 0 ? Opcode.RC_RDMA_READ_RESPONSE_FIRST
                        : i == n - 1 ? Opcode.RC_RDMA_READ_RESPONSE_LAST : Opcode.RC_RDMA_READ_RESPONSE_MIDDLE;
                var f = c.frame(b, a, RESP_QPN, REQ_QPN, op, 500 + i).payload(segment(data, i));
                if (op != Opcode.RC_RDMA_READ_RESPONSE_MIDDLE) {
                    f.aeth(AethSyndrome.ACK_NO_CREDIT, 1);
                }
                c.write(f, i == 0 ? "a READ consumes one PSN per response packet" : null);
            }
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_RDMA_READ_REQUEST, 500 + n).reth(VA, RKEY, 8)
                    .ackReq(true), null);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_RDMA_READ_RESPONSE_ONLY, 500 + n)
                    .aeth(AethSyndrome.ACK_NO_CREDIT, 2).payload(pattern(8, 4)), null);
        }
    }

    private void rcAtomic() throws IOException {
        try (Conversation c = pcap("rc_atomic_vlan.pcap")) {
            c.vlan(3, 100);
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_COMPARE_SWAP, 7).atomicEth(VA, RKEY, 42, 0)
                    .ackReq(true), null);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ATOMIC_ACKNOWLEDGE, 7)
                    .aeth(AethSyndrome.ACK_NO_CREDIT, 1).atomicAckEth(0), "compare matched: 42 swapped in");
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_FETCH_ADD, 8).atomicEth(VA, RKEY, 1, 0)
                    .ackReq(true), null);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ATOMIC_ACKNOWLEDGE, 8)
                    .aeth(AethSyndrome.ACK_NO_CREDIT, 2).atomicAckEth(42), "fetched 42, memory now 43");
        }
    }

    private void rcNaks() throws IOException {
        try (Conversation c = pcap("rc_naks_ipv4.pcap")) {
            // PSN 11 is lost: the responder NAKs 12 with a PSN sequence error, the requester goes back to 11
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_SEND_ONLY, 10).payload(pattern(32, 1)).ackReq(true),
                    null);
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_SEND_ONLY, 12).payload(pattern(32, 3)).ackReq(true),
                    "PSN 11 was lost on the way");
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, 11)
                    .aeth(AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR), 1), "expected PSN 11");
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_SEND_ONLY, 11).payload(pattern(32, 2)).ackReq(true),
                    "go-back-N from the NAKed PSN");
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_SEND_ONLY, 12).payload(pattern(32, 3)).ackReq(true),
                    null);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, 12).aeth(AethSyndrome.ACK_NO_CREDIT, 3),
                    null);
            // no receive posted: RNR NAK with timer code 12 (0.64 ms), then the retry succeeds
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_SEND_ONLY, 13).payload(pattern(32, 4)).ackReq(true),
                    null);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, 13).aeth(AethSyndrome.rnrNak(12), 3),
                    "receiver not ready: no receive WQE posted");
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_SEND_ONLY, 13).payload(pattern(32, 4)).ackReq(true),
                    "retried after the RNR timer");
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, 13).aeth(AethSyndrome.ACK_NO_CREDIT, 4),
                    null);
            // a WRITE with a wrong rkey: remote access error
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_RDMA_WRITE_ONLY, 14).reth(VA, 0xbad, 8)
                    .payload(pattern(8, 5)).ackReq(true), null);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, 14)
                    .aeth(AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR), 4), "rkey 0xbad is not valid");
        }
    }

    private void udUc() throws IOException {
        try (Conversation c = pcap("ud_uc_ipv4.pcap")) {
            c.write(c.frame(a, b, 0x21, 0x22, Opcode.UD_SEND_ONLY, 1).deth(0x11111111, 0x21).payload(pattern(100, 6)),
                    "UD: every packet names its source QP and Q_Key");
            c.write(c.frame(a, b, 0x21, 0x22, Opcode.UD_SEND_ONLY_WITH_IMMEDIATE, 2).deth(0x11111111, 0x21)
                    .immDt(7).payload(pattern(50, 7)).solicited(true), null);
            c.write(c.frame(a, b, 0x31, 0x32, Opcode.UC_SEND_ONLY, 40).payload(pattern(64, 8)),
                    "UC: no ACKs, no retransmission");
            c.write(c.frame(a, b, 0x31, 0x32, Opcode.UC_RDMA_WRITE_ONLY, 41).reth(VA, RKEY, 64)
                    .payload(pattern(64, 9)), null);
        }
    }

    private void ecnCnp() throws IOException {
        Path file = dir.resolve("ecn_cnp.pcapng");
        written.add(file);
        try (Conversation c = new Conversation(PcapngWriter.create(file), "host-a")) {
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_RDMA_WRITE_ONLY, 1).reth(VA, RKEY, 1024)
                    .payload(pattern(1024, 1)).ackReq(true), "sent ECT(0)");
            c.trafficClass(26, 3);
            c.write(c.frame(a, b, REQ_QPN, RESP_QPN, Opcode.RC_RDMA_WRITE_ONLY, 2).reth(VA, RKEY, 1024)
                    .payload(pattern(1024, 2)).ackReq(true), "arrived CE: a switch queue was above its ECN threshold");
            c.trafficClass(48, 2);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.CNP, 0).becn(1).ackReq(false),
                    "CNP from the notification point (DSCP 48) to the congested QP");
            c.trafficClass(26, 2);
            c.write(c.frame(b, a, RESP_QPN, REQ_QPN, Opcode.RC_ACKNOWLEDGE, 2).aeth(AethSyndrome.ACK_NO_CREDIT, 2),
                    null);
        }
    }

    private void pfc() throws IOException {
        Path file = dir.resolve("pfc.pcapng");
        written.add(file);
        long switchMac = MacAddress.parse("02:00:00:00:00:99");
        try (Conversation c = new Conversation(PcapngWriter.create(file), "switch-port-1")) {
            c.write(pfcFrame(switchMac, 1 << 3, 0xFFFF), "PFC XOFF prio 3: ingress PG 3 crossed xoff");
            c.write(pfcFrame(switchMac, 1 << 3, 0xFFFF), "refresh before the pause expires");
            c.write(pfcFrame(switchMac, (1 << 3) | (1 << 4), 0), "PFC XON prio 3 and 4: below xon");
        }
    }

    private static ByteBuf pfcFrame(long src, int vector, int quanta) {
        ByteBuf f = Unpooled.buffer(Ethernet.MIN_FRAME);
        Ethernet.write(f, 0, MacAddress.PAUSE_MULTICAST, src, EtherType.MAC_CONTROL);
        int[] times = new int[Pfc.PRIORITIES];
        for (int p = 0; p < Pfc.PRIORITIES; p++) {
            times[p] = (vector & (1 << p)) != 0 ? quanta : 0;
        }
        Pfc.write(f, Ethernet.LENGTH, vector, times);
        f.setZero(Ethernet.LENGTH + Pfc.LENGTH, Ethernet.MIN_FRAME - Ethernet.LENGTH - Pfc.LENGTH);
        f.writerIndex(Ethernet.MIN_FRAME);
        return f;
    }

    private void arp(Conversation c) throws IOException {
        c.write(arpFrame(Arp.REQUEST, a, b), null);
        c.write(arpFrame(Arp.REPLY, b, a), null);
    }

    private static ByteBuf arpFrame(int op, Host from, Host to) {
        ByteBuf f = Unpooled.buffer(Ethernet.MIN_FRAME);
        long dst = op == Arp.REQUEST ? MacAddress.BROADCAST : to.mac;
        Ethernet.write(f, 0, dst, from.mac, EtherType.ARP);
        Arp.write(f, Ethernet.LENGTH, op, from.mac, from.ipv4, op == Arp.REQUEST ? 0 : to.mac, to.ipv4);
        f.setZero(Ethernet.LENGTH + Arp.LENGTH, Ethernet.MIN_FRAME - Ethernet.LENGTH - Arp.LENGTH);
        f.writerIndex(Ethernet.MIN_FRAME);
        return f;
    }
}
