package io.rocelab.sw.config;

/**
 * How a VXLAN tunnel carries DSCP, SAI's {@code sai_tunnel_dscp_mode_t} (saitunnel.h,
 * {@code SAI_TUNNEL_ATTR_ENCAP_DSCP_MODE} and {@code SAI_TUNNEL_ATTR_DECAP_DSCP_MODE}), named as
 * SONiC's {@code TUNNEL} table names them for IP-in-IP ({@code dscp_mode uniform|pipe}); rocelab
 * reads it from {@code VXLAN_TUNNEL dscp_mode}, one mode for both directions.
 */
public enum TunnelDscpMode {
    /**
     * {@code SAI_TUNNEL_DSCP_MODE_UNIFORM_MODEL}: "the DSCP field is preserved end-to-end by copying
     * into the outer header on encapsulation and copying from the outer header on decapsulation".
     */
    UNIFORM("uniform") {
        @Override
        public int outer(int innerDscp, int tunnelDscp) {
            return innerDscp;
        }

        @Override
        public int inner(int outerDscp, int innerDscp) {
            return outerDscp;
        }
    },
    /**
     * {@code SAI_TUNNEL_DSCP_MODE_PIPE_MODEL}: the outer DSCP is the tunnel's own
     * ({@code SAI_TUNNEL_ATTR_ENCAP_DSCP_VAL}, rocelab's {@code encap_dscp}) and hides the inner's from
     * the underlay; decapsulation leaves the inner DSCP as it was.
     */
    PIPE("pipe") {
        @Override
        public int outer(int innerDscp, int tunnelDscp) {
            return tunnelDscp;
        }

        @Override
        public int inner(int outerDscp, int innerDscp) {
            return innerDscp;
        }
    };

    private final String text;

    TunnelDscpMode(String text) {
        this.text = text;
    }

    /** @return the outer DSCP at encapsulation */
    public abstract int outer(int innerDscp, int tunnelDscp);

    /** @return the inner DSCP after decapsulation */
    public abstract int inner(int outerDscp, int innerDscp);

    /** @return the config_db spelling */
    public String text() {
        return text;
    }

    /** @return the mode spelt {@code s}, or null */
    public static TunnelDscpMode parse(String s) {
        for (TunnelDscpMode m : values()) {
            if (m.text.equals(s)) {
                return m;
            }
        }
        return null;
    }
}
