package io.rocelab.perftest.testkit;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of a captured RoCEv2 packet that a key record predicts: the destination QP and PSN
 * of the BTH, and the remote address and key of a RETH or AtomicETH. Decoded by hand from the IBA
 * layouts so the cross-check does not lean on the code under test.
 */
public record RoceRequest(int frameNumber, InetAddress source, InetAddress destination, int opcode, int destQp,
                          int psn, Long remoteAddress, Long rkey, Integer sourceQp) {

    private static final int ROCE_PORT = 4791;

    /** Every RoCEv2 packet in the frames, in capture order. */
    public static List<RoceRequest> all(List<Pcap.Frame> frames) {
        List<RoceRequest> out = new ArrayList<>();
        for (Pcap.Frame f : frames) {
            Packet p = Packet.decode(f);
            if (p == null || p.protocol != Packet.UDP || p.destinationPort != ROCE_PORT) {
                continue;
            }
            byte[] b = p.payload;
            int opcode = b[0] & 0xff;
            int destQp = (Packet.u16(b, 5) << 8) | (b[7] & 0xff);
            int psn = (Packet.u16(b, 9) << 8) | (b[11] & 0xff);
            int service = opcode >>> 5;
            int op = opcode & 0x1f;
            Long va = null;
            Long rkey = null;
            Integer srcQp = null;
            int ext = 12;
            if (service == 3) {
                srcQp = (Packet.u16(b, ext + 5) << 8) | (b[ext + 7] & 0xff);
                ext += 8;
            }
            boolean reth = (service == 0 || service == 1)
                    && (op == 0x06 || op == 0x0a || op == 0x0b || op == 0x0c);
            boolean atomic = service == 0 && (op == 0x13 || op == 0x14);
            if (reth || atomic) {
                va = (Integer.toUnsignedLong(Packet.u32(b, ext)) << 32) | Integer.toUnsignedLong(Packet.u32(b, ext + 4));
                rkey = Integer.toUnsignedLong(Packet.u32(b, ext + 8));
            }
            out.add(new RoceRequest(f.number(), p.source, p.destination, opcode, destQp, psn, va, rkey, srcQp));
        }
        return out;
    }

    /** True for requests (not acknowledgements or read responses): what the requester's PSN numbers. */
    public boolean isRequest() {
        int op = opcode & 0x1f;
        return !(op >= 0x0d && op <= 0x12);
    }
}
