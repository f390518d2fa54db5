package io.rocelab.perftest.report;

import io.rocelab.perftest.CFormat;
import io.rocelab.perftest.Verb;
import io.rocelab.perftest.oob.Gid;
import io.rocelab.perftest.oob.KeyRecord;

/**
 * The "local address" / "remote address" lines perftest prints after the key exchange
 * ({@code ctx_print_pingpong_data}). They show the key records as the peers agreed on them, so a
 * user can match them against a capture: QPN and PSN for every verb, the outstanding reads for
 * read, rkey and address for read and write, and the GID — in decimal bytes, as perftest does —
 * when one is in use.
 */
public final class AddressReport {
    /** Which record a line describes. */
    public enum Side {
        LOCAL("local"),
        REMOTE("remote");

        private final String label;

        Side(String label) {
            this.label = label;
        }
    }

    private AddressReport() {
    }

    /**
     * The line(s) for one key record, newline-terminated.
     *
     * @param showGid true when a GID index is in use (always on RoCE)
     */
    public static String render(Side side, KeyRecord k, Verb verb, boolean showGid) {
        StringBuilder sb = new StringBuilder(160);
        sb.append(' ').append(side.label).append(" address: LID ").append(CFormat.alternateHex(k.lid(), 4))
                .append(" QPN ").append(CFormat.alternateHex(k.qpn(), 6))
                .append(" PSN ").append(CFormat.alternateHex(k.psn(), 6));
        if (verb == Verb.READ) {
            sb.append(" OUT ").append(CFormat.alternateHex(k.outReads(), 4));
        }
        if (verb == Verb.READ || verb == Verb.WRITE) {
            sb.append(" RKey ").append(CFormat.alternateHex(k.rkey(), 8))
                    .append(" VAddr ").append(CFormat.alternateHex(k.vaddr(), 16));
        }
        sb.append('\n');
        if (showGid) {
            Gid g = k.gid() == null ? Gid.zero() : k.gid();
            sb.append(" GID: ");
            for (int i = 0; i < Gid.LENGTH; i++) {
                if (i > 0) {
                    sb.append(':');
                }
                sb.append(CFormat.decimal(g.byteAt(i), 2));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
