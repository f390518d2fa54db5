package io.rocelab.perftest.oob;

import io.rocelab.perftest.CFormat;
import java.util.Objects;

/**
 * The connection record of rdma-core's {@code ibv_rc_pingpong}, {@code ibv_uc_pingpong} and
 * {@code ibv_ud_pingpong}: {@code "%04x:%06x:%06x:%s"} — LID, QPN, PSN and the GID as 32 lowercase
 * hex digits in network order — plus the NUL, always {@value #WIRE_SIZE} bytes in one write.
 * Simpler than perftest's record: no rkey or address, since pingpong only sends.
 *
 * @param lid local identifier, 0 on RoCE
 * @param qpn 24-bit QP number
 * @param psn 24-bit first packet sequence number
 * @param gid the GID (all zero when the tool runs without {@code -g})
 */
public record PingpongRecord(int lid, int qpn, int psn, Gid gid) {

    /** {@code sizeof "0000:000000:000000:00000000000000000000000000000000"}. */
    public static final int WIRE_SIZE = 52;

    private static final String NAME = "pingpong record";

    public PingpongRecord {
        Objects.requireNonNull(gid, "gid");
        if (lid < 0 || lid > 0xffff) {
            throw new IllegalArgumentException("LID must be between 0 and 0xffff, got 0x" + Integer.toHexString(lid));
        }
        if (qpn < 0 || qpn > 0xffffff) {
            throw new IllegalArgumentException("QPN must be between 0 and 0xffffff, got 0x" + Integer.toHexString(qpn));
        }
        if (psn < 0 || psn > 0xffffff) {
            throw new IllegalArgumentException("PSN must be between 0 and 0xffffff, got 0x" + Integer.toHexString(psn));
        }
    }

    /** The 52 bytes pingpong writes. */
    public byte[] encode() {
        StringBuilder sb = new StringBuilder(WIRE_SIZE);
        sb.append(CFormat.hex(lid, 4)).append(':').append(CFormat.hex(qpn, 6)).append(':')
                .append(CFormat.hex(psn, 6)).append(':');
        for (int i = 0; i < Gid.LENGTH; i++) {
            sb.append(CFormat.hex(gid.byteAt(i), 2));
        }
        return HexFields.withNul(sb.toString());
    }

    /** Parses the 52 bytes strictly: exact widths, colons and the NUL. */
    public static PingpongRecord decode(byte[] wire) {
        Objects.requireNonNull(wire, "wire");
        HexFields f = HexFields.of(NAME, wire, WIRE_SIZE);
        int lid = (int) f.hex("LID", 4);
        f.expect(':', "LID");
        int qpn = (int) f.hex("QPN", 6);
        f.expect(':', "QPN");
        int psn = (int) f.hex("PSN", 6);
        f.expect(':', "PSN");
        byte[] raw = new byte[Gid.LENGTH];
        for (int i = 0; i < Gid.LENGTH; i++) {
            raw[i] = (byte) f.hex("GID", 2);
        }
        f.expect('\0', "GID");
        f.end();
        return new PingpongRecord(lid, qpn, psn, Gid.of(raw));
    }
}
