package io.rocelab.sw.config;

/**
 * What a decapsulating VTEP does with the outer ECN field, SAI's {@code sai_tunnel_decap_ecn_mode_t}
 * ({@code SAI_TUNNEL_ATTR_DECAP_ECN_MODE}), named as SONiC's {@code TUNNEL} table names it for
 * IP-in-IP ({@code ecn_mode standard|copy_from_outer}); rocelab reads it from
 * {@code VXLAN_TUNNEL ecn_mode}. Encapsulation always copies the inner ECN out (RFC 6040 section
 * 4.1 normal mode, SAI's {@code SAI_TUNNEL_ENCAP_ECN_MODE_STANDARD}).
 */
public enum TunnelEcnMode {
    /**
     * {@code SAI_TUNNEL_DECAP_ECN_MODE_STANDARD}, RFC 6040 section 4.2 (Figure 4): an outer CE
     * marks an ECT inner packet CE and drops a Not-ECT one; an outer ECT(1) turns an inner ECT(0)
     * into ECT(1); otherwise the inner field stays.
     */
    STANDARD("standard") {
        @Override
        public int inner(int outer, int inner) {
            if (outer == CE) {
                return inner == NOT_ECT ? DROP : CE;
            }
            return outer == ECT1 && inner == ECT0 ? ECT1 : inner;
        }
    },
    /** {@code SAI_TUNNEL_DECAP_ECN_MODE_COPY_FROM_OUTER}: the inner ECN becomes the outer's. */
    COPY_FROM_OUTER("copy_from_outer") {
        @Override
        public int inner(int outer, int inner) {
            return outer;
        }
    },
    /**
     * rocelab's own: the outer ECN is thrown away with the outer header and the inner left as it
     * was, as a tunnel before RFC 6040 did (RFC 3168 section 9.1.1's limited functionality option:
     * "the inner header's ECN field is not changed on decapsulation"); in SAI terms
     * {@code SAI_TUNNEL_DECAP_ECN_MODE_USER_DEFINED} with a map that keeps the inner value. A congestion
     * mark made in the underlay never reaches the receiver: what a misconfigured VTEP does.
     */
    IGNORE_OUTER("ignore_outer") {
        @Override
        public int inner(int outer, int inner) {
            return inner;
        }
    };

    /** ECN codepoints (RFC 3168 section 5). */
    public static final int NOT_ECT = 0;
    public static final int ECT1 = 1;
    public static final int ECT0 = 2;
    public static final int CE = 3;
    /** {@link #inner}'s answer for a packet to drop. */
    public static final int DROP = -1;

    private final String text;

    TunnelEcnMode(String text) {
        this.text = text;
    }

    /**
     * @param outer the outer header's ECN field
     * @param inner the inner header's
     * @return the inner field after decapsulation, or {@link #DROP}
     */
    public abstract int inner(int outer, int inner);

    /** @return the config_db spelling */
    public String text() {
        return text;
    }

    /** @return the mode spelt {@code s}, or null */
    public static TunnelEcnMode parse(String s) {
        for (TunnelEcnMode m : values()) {
            if (m.text.equals(s)) {
                return m;
            }
        }
        return null;
    }
}
