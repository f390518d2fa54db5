package io.rocelab.codec.testkit;

import java.util.HexFormat;
import java.util.List;

/**
 * RoCEv1 frames written out by hand from the specifications, byte by byte, for the codec and
 * Wireshark to agree with: IEEE 802.3 Ethernet (an optional 802.1Q tag), EtherType 0x8915, the
 * GRH of IBA 8.3.1 (IPVer 6, TClass, FlowLabel, PayLen = BTH to ICRC inclusive, NxtHdr 0x1B,
 * HopLmt, SGID, DGID), the BTH of IBA 9.2 and its extension headers, the payload and pad, and the
 * ICRC of IBA Annex A16 (7.8.1 with the absent LRH as eight bytes of ones), computed here by a
 * bit-at-a-time CRC-32 over a masked copy that this class builds itself: nothing of the codec is
 * used to make them.
 */
public final class RoceV1GoldenFrames {
    /** A golden frame: its name, its bytes with the ICRC filled in, and where its headers are. */
    public record Frame(String name, byte[] bytes, int grhOffset, int bthOffset, int opcode, int destQp, int psn,
                        int payloadLength, int pcp) {
        public int icrcOffset() {
            return bytes.length - 4;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final HexFormat HEX = HexFormat.of();

    private RoceV1GoldenFrames() {
    }

    public static List<Frame> all() {
        return List.of(sendOnlyIpv4Mapped(), writeOnlyVlanLinkLocal(), ackGlobalIpv6());
    }

    /** RC SEND Only (opcode 0x04), untagged, IPv4-mapped GIDs, 8 bytes of payload, AckReq. */
    public static Frame sendOnlyIpv4Mapped() {
        String hex = ""
                // Ethernet: destination 02:00:00:00:00:02, source 02:00:00:00:00:01, EtherType RoCE
                + "020000000002" + "020000000001" + "8915"
                // GRH: IPVer 6, TClass 0, FlowLabel 0 | PayLen 24 (BTH 12 + payload 8 + ICRC 4),
                // NxtHdr 0x1B (IBA transport), HopLmt 64
                + "60000000" + "0018" + "1b" + "40"
                // SGID ::ffff:10.0.0.1, DGID ::ffff:10.0.0.2
                + "00000000000000000000ffff0a000001" + "00000000000000000000ffff0a000002"
                // BTH: opcode 0x04, SE 0 M 0 PadCnt 0 TVer 0, P_Key 0xFFFF | resv8a 0, DestQP 0x000011 |
                // AckReq 1, PSN 1
                + "04" + "00" + "ffff" + "00" + "000011" + "80" + "000001"
                // payload "ABCDEFGH"
                + "4142434445464748";
        return frame("rc-send-only-ipv4-mapped", hex, 14, 0x04, 0x11, 1, 8, -1);
    }

    /**
     * RC RDMA WRITE Only (0x0A) with its RETH, in an 802.1Q tag with PCP 3 and VID 100, link-local
     * GIDs, and variant GRH fields that are not zero (TClass 0x68, FlowLabel 0x12345, HopLmt 1),
     * which the ICRC masks; 6 payload bytes and PadCnt 2.
     */
    public static Frame writeOnlyVlanLinkLocal() {
        String hex = ""
                // Ethernet, 802.1Q TPID 0x8100, TCI PCP 3 DEI 0 VID 100 (0x6064), EtherType RoCE
                + "020000000002" + "020000000001" + "8100" + "6064" + "8915"
                // GRH: IPVer 6 | TClass 0x68 | FlowLabel 0x12345 = 0x66812345; PayLen 40 (BTH 12 +
                // RETH 16 + payload 6 + pad 2 + ICRC 4), NxtHdr 0x1B, HopLmt 1
                + "66812345" + "0028" + "1b" + "01"
                // SGID fe80::ff:fe00:1, DGID fe80::ff:fe00:2 (EUI-64 of the MACs)
                + "fe80000000000000000000fffe000001" + "fe80000000000000000000fffe000002"
                // BTH: opcode 0x0A, PadCnt 2 (0x20), P_Key 0xFFFF | resv8a 0, DestQP 0x000012 |
                // AckReq 1, PSN 7
                + "0a" + "20" + "ffff" + "00" + "000012" + "80" + "000007"
                // RETH: VA 0x00007f0000001000, R_Key 0x00001234, DMA length 6
                + "00007f0000001000" + "00001234" + "00000006"
                // payload "rocev1", pad 0x0000
                + "726f63657631" + "0000";
        return frame("rc-write-only-vlan-link-local", hex, 18, 0x0A, 0x12, 7, 6, 3);
    }

    /** RC Acknowledge (0x11) with its AETH (syndrome 0x1F: ACK, no credit count; MSN 1), global IPv6 GIDs. */
    public static Frame ackGlobalIpv6() {
        String hex = ""
                // Ethernet: from 02:00:00:00:00:02 back to 02:00:00:00:00:01, EtherType RoCE
                + "020000000001" + "020000000002" + "8915"
                // GRH: IPVer 6, TClass 0, FlowLabel 0 | PayLen 20 (BTH 12 + AETH 4 + ICRC 4), NxtHdr 0x1B,
                // HopLmt 64
                + "60000000" + "0014" + "1b" + "40"
                // SGID fd00:77::2, DGID fd00:77::1
                + "fd000077000000000000000000000002" + "fd000077000000000000000000000001"
                // BTH: opcode 0x11, flags 0, P_Key 0xFFFF | resv8a 0, DestQP 0x000013 | AckReq 0, PSN 7
                + "11" + "00" + "ffff" + "00" + "000013" + "00" + "000007"
                // AETH: syndrome 0x1F, MSN 1
                + "1f" + "000001";
        return frame("rc-ack-global-ipv6", hex, 14, 0x11, 0x13, 7, 0, -1);
    }

    private static Frame frame(String name, String hex, int grh, int opcode, int qp, int psn, int payload,
                               int pcp) {
        byte[] body = HEX.parseHex(hex);
        byte[] out = new byte[body.length + 4];
        System.arraycopy(body, 0, out, 0, body.length);
        int crc = icrc(body, grh);
        // IBA 7.8.1: the ICRC goes on the wire least-significant byte first
        out[body.length] = (byte) crc;
        out[body.length + 1] = (byte) (crc >>> 8);
        out[body.length + 2] = (byte) (crc >>> 16);
        out[body.length + 3] = (byte) (crc >>> 24);
        return new Frame(name, out, grh, grh + 40, opcode, qp, psn, payload, pcp);
    }

    /**
     * The ICRC of IBA Annex A16 over {@code body} (the frame up to the ICRC), the GRH at
     * {@code grh}: eight bytes of ones for the LRH, then the GRH with TClass, FlowLabel and HopLmt
     * set to ones, the BTH with resv8a set to ones, the rest as it is.
     */
    public static int icrc(byte[] body, int grh) {
        int covered = body.length - grh;
        byte[] masked = new byte[8 + covered];
        java.util.Arrays.fill(masked, 0, 8, (byte) 0xFF);
        System.arraycopy(body, grh, masked, 8, covered);
        int g = 8;
        masked[g] = (byte) (masked[g] | 0x0F); // IPVer stays, the top of TClass becomes ones
        masked[g + 1] = (byte) 0xFF;           // TClass low nibble, FlowLabel high nibble
        masked[g + 2] = (byte) 0xFF;           // FlowLabel
        masked[g + 3] = (byte) 0xFF;           // FlowLabel
        masked[g + 7] = (byte) 0xFF;           // HopLmt
        masked[g + 40 + 4] = (byte) 0xFF;      // BTH resv8a
        return crc32(masked);
    }

    /** CRC-32 (IEEE 802.3 polynomial, reflected, initial and final XOR all ones), a bit at a time. */
    static int crc32(byte[] data) {
        int crc = 0xFFFFFFFF;
        for (byte b : data) {
            crc ^= b & 0xFF;
            for (int i = 0; i < 8; i++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0xEDB88320 : crc >>> 1;
            }
        }
        return ~crc;
    }
}
