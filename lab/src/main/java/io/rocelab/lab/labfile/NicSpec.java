package io.rocelab.lab.labfile;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.nic.FlowControlMode;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.nic.dcb.DcbSettings;

/**
 * Every host NIC's settings.
 *
 * @param cc            {@code none} or {@code dcqcn}
 * @param params        DCQCN's parameters (mlx5's cc_params), the firmware's defaults unless changed
 * @param pauseResponse how long the NIC takes to act on a received PFC XOFF ({@code pause-response};
 *                      IEEE 802.3 31B.3.7's bound for the link speed unless given)
 * @param flowControl   the NICs' link flow control ({@code flow-control: pfc | pause}; PFC unless given)
 * @param dcb           the DCB settings ({@code trust}, {@code pfc}, {@code dcbx}: mlnx_qos's), rocelab's
 *                      defaults unless given; a host of an explicit topology may override them
 * @param outOfOrder    {@code out-of-order: true}: the NICs' RC QPs place data out of order (mlx5dv's
 *                      {@code MLX5DV_QP_CREATE_OOO_DP}), as ConnectX NICs behind adaptive-routing switches
 *                      do; off (rxe's in-order receive) unless given; a host may override it
 * @param roceV1        {@code roce-v1: true}: the NICs list a RoCEv1 GID beside each RoCEv2 one, as mlx5 on a
 *                      ConnectX (v1 then v2 per address), so flows may run RoCEv1 ({@code roce: v1}); off
 *                      (rxe's RoCEv2-only table) unless given; a host may override it
 */
public record NicSpec(String cc, DcqcnParams params, PauseResponse pauseResponse, FlowControlMode flowControl,
                      DcbSettings dcb, boolean outOfOrder, boolean roceV1) {
    /** The NICs of a lab without a {@code nics:} section. */
    public static final NicSpec DEFAULTS = new NicSpec("none", DcqcnParams.defaults(), PauseResponse.IEEE);

    /** NICs with rxe's RoCEv2-only GID table. */
    public NicSpec(String cc, DcqcnParams params, PauseResponse pauseResponse, FlowControlMode flowControl,
                   DcbSettings dcb, boolean outOfOrder) {
        this(cc, params, pauseResponse, flowControl, dcb, outOfOrder, false);
    }

    /** NICs that receive in order (rxe's way). */
    public NicSpec(String cc, DcqcnParams params, PauseResponse pauseResponse, FlowControlMode flowControl,
                   DcbSettings dcb) {
        this(cc, params, pauseResponse, flowControl, dcb, false);
    }

    /** NICs that run PFC with rocelab's default DCB settings. */
    public NicSpec(String cc, DcqcnParams params, PauseResponse pauseResponse) {
        this(cc, params, pauseResponse, FlowControlMode.PFC, DcbSettings.DEFAULTS);
    }

    public boolean dcqcn() {
        return "dcqcn".equals(cc);
    }
}
