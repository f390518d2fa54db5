package io.rocelab.sw.config;

import java.util.Locale;

/**
 * A port's IEEE 802.3x link-level flow control (802.3 Annex 31B, PAUSE frames for the whole port),
 * SAI's {@code SAI_PORT_ATTR_GLOBAL_FLOW_CONTROL_MODE} ({@code saiport.h},
 * {@code sai_port_flow_control_mode_t}): {@code DISABLE}, {@code TX_ONLY} (the port sends PAUSE),
 * {@code RX_ONLY} (it honours received PAUSE), {@code BOTH_ENABLE}.
 *
 * <p>SONiC's config_db has no field for it ({@code sonic-port.yang} lists none, and orchagent's
 * portsorch sets only PFC's {@code pfc_asym} of the flow-control attributes), so rocelab reads its
 * own {@code PORT} field {@code global_flow_control}: {@code off} (the default), {@code tx},
 * {@code rx} or {@code both}.
 */
public enum GlobalFlowControl {
    /** {@code SAI_PORT_FLOW_CONTROL_MODE_DISABLE}. */
    OFF,
    /** {@code SAI_PORT_FLOW_CONTROL_MODE_TX_ONLY}: sends PAUSE, ignores what it receives. */
    TX,
    /** {@code SAI_PORT_FLOW_CONTROL_MODE_RX_ONLY}: honours PAUSE, sends none. */
    RX,
    /** {@code SAI_PORT_FLOW_CONTROL_MODE_BOTH_ENABLE}. */
    BOTH;

    /** The rocelab {@code PORT} field. */
    public static final String FIELD = "global_flow_control";

    /** @return whether the port sends PAUSE when its ingress passes its threshold */
    public boolean sends() {
        return this == TX || this == BOTH;
    }

    /** @return whether a received PAUSE stops the port's egress */
    public boolean honours() {
        return this == RX || this == BOTH;
    }

    /** @return the field's value as written in config_db */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the mode {@code value} names, or null if it names none */
    public static GlobalFlowControl parse(String value) {
        for (GlobalFlowControl m : values()) {
            if (m.value().equals(value)) {
                return m;
            }
        }
        return null;
    }
}
