package io.rocelab.nic.dcb;

import io.rocelab.codec.lldp.DcbxEts;
import java.util.Arrays;
import java.util.Objects;

/**
 * A NIC's data centre bridging settings, as {@code mlnx_qos -i IFACE} shows them on a ConnectX and
 * {@code lldptool} sets them: which header the NIC trusts ({@code --trust}), the PFC enable vector
 * ({@code --pfc}, IEEE 802.1Qbb), ETS (IEEE 802.1Qaz: priority to traffic class, each class's
 * bandwidth and algorithm), the DSCP to priority map ({@code --dscp2prio}) and whether DCBX may
 * replace them with the link partner's ({@code dcbx}: willing, as lldpad and ConnectX firmware
 * default to, or off).
 *
 * <p>rocelab's defaults keep the NIC as it always was, and differ from a ConnectX out of the box in
 * two places, on purpose: it trusts DSCP (mlx5 defaults to PCP), as SONiC's RoCE deployments set
 * their NICs (an untagged RoCE frame's priority is its DSCP's, DSCP / 8 by mlx5's default
 * {@code dscp2prio}: DSCP 26 is priority 3); and it acts on a received PFC for every priority (a
 * ConnectX has PFC off on all eight until {@code mlnx_qos --pfc} turns some on), so a lab or a tool
 * that says nothing keeps the behaviour it had. ETS is mlx5's default: priority 0 in traffic class
 * 1, priority 1 in class 0, the others each in their own, every class ETS with an equal share.
 *
 * @param trust          which header gives a frame its priority at the NIC
 * @param pfcEnable      bit p set: PFC on priority p (the NIC acts on pauses for it)
 * @param ets            priority to traffic class, bandwidth and TSA per class (its willing, cbs
 *                       and max-TCs fields are the NIC's to fill when it advertises)
 * @param dscpToPriority 64 entries: the priority of DSCP d when the NIC trusts DSCP
 * @param dcbx           whether DCBX may replace these with the link partner's
 */
public record DcbSettings(Trust trust, int pfcEnable, DcbxEts ets, int[] dscpToPriority, DcbxMode dcbx) {
    /** Every priority with PFC: what rocelab's NIC honours unless told. */
    public static final int PFC_ALL = 0xFF;

    /** mlx5's default ETS: priority 0 in TC 1 and 1 in TC 0 (as {@code mlnx_qos} shows it), equal ETS shares. */
    public static final DcbxEts MLX5_DEFAULT_ETS = new DcbxEts(false, false, 8,
        new int[] {1, 0, 2, 3, 4, 5, 6, 7}, new int[] {12, 12, 12, 12, 13, 13, 13, 13},
        new int[] {DcbxEts.TSA_ETS, DcbxEts.TSA_ETS, DcbxEts.TSA_ETS, DcbxEts.TSA_ETS, DcbxEts.TSA_ETS,
            DcbxEts.TSA_ETS, DcbxEts.TSA_ETS, DcbxEts.TSA_ETS});

    /** rocelab's NIC as it has always been (see the class comment). */
    public static final DcbSettings DEFAULTS = new DcbSettings(Trust.DSCP, PFC_ALL, MLX5_DEFAULT_ETS,
        defaultDscpMap(), DcbxMode.WILLING);

    /** Which header gives a frame its priority ({@code mlnx_qos --trust}, mlx5's QPTS trust state). */
    public enum Trust {
        /** The 802.1Q tag's PCP; an untagged frame is priority 0. */
        PCP,
        /** The IP header's DSCP, through {@link #dscpToPriority}. */
        DSCP;

        public static Trust parse(String text) {
            return switch (text == null ? "" : text) {
                case "pcp" -> PCP;
                case "dscp" -> DSCP;
                default -> throw new IllegalArgumentException("trust is dscp or pcp, not '" + text + "'");
            };
        }

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** DCBX's mode (IEEE 802.1Qaz willing bit; lldpad's and ConnectX's default is willing). */
    public enum DcbxMode {
        /** The NIC takes a not-willing link partner's PFC, ETS and application priorities. */
        WILLING,
        /** No DCBX: the NIC sends no DCBX TLVs and keeps its own settings whatever its partner says. */
        OFF;

        public static DcbxMode parse(String text) {
            return switch (text == null ? "" : text) {
                case "willing" -> WILLING;
                case "off" -> OFF;
                default -> throw new IllegalArgumentException("dcbx is willing or off, not '" + text + "'");
            };
        }

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public DcbSettings {
        Objects.requireNonNull(trust, "trust");
        Objects.requireNonNull(ets, "ets");
        Objects.requireNonNull(dcbx, "dcbx");
        if ((pfcEnable & ~0xFF) != 0) {
            throw new IllegalArgumentException("the PFC enable vector is 8 bits: " + pfcEnable);
        }
        if (dscpToPriority == null || dscpToPriority.length != 64) {
            throw new IllegalArgumentException("the DSCP to priority map needs 64 entries");
        }
        dscpToPriority = dscpToPriority.clone();
        for (int p : dscpToPriority) {
            if (p < 0 || p > 7) {
                throw new IllegalArgumentException("a DSCP's priority is 0..7: " + p);
            }
        }
    }

    /** mlx5's default {@code dscp2prio}: DSCP / 8. */
    public static int[] defaultDscpMap() {
        int[] m = new int[64];
        for (int d = 0; d < 64; d++) {
            m[d] = d >> 3;
        }
        return m;
    }

    @Override
    public int[] dscpToPriority() {
        return dscpToPriority.clone();
    }

    /** The priority of DSCP {@code dscp} (0..63) in the map. */
    public int priorityOfDscp(int dscp) {
        return dscpToPriority[dscp];
    }

    public boolean pfcEnabled(int priority) {
        return (pfcEnable & (1 << priority)) != 0;
    }

    public DcbSettings withTrust(Trust t) {
        return new DcbSettings(t, pfcEnable, ets, dscpToPriority, dcbx);
    }

    public DcbSettings withPfc(int mask) {
        return new DcbSettings(trust, mask, ets, dscpToPriority, dcbx);
    }

    public DcbSettings withEts(DcbxEts e) {
        return new DcbSettings(trust, pfcEnable, e, dscpToPriority, dcbx);
    }

    public DcbSettings withDscpMap(int[] map) {
        return new DcbSettings(trust, pfcEnable, ets, map, dcbx);
    }

    public DcbSettings withDcbx(DcbxMode mode) {
        return new DcbSettings(trust, pfcEnable, ets, dscpToPriority, mode);
    }

    /**
     * {@code mlnx_qos --pfc}'s spelling: eight comma-separated 0/1, priority 0 first
     * ({@code 0,0,0,1,0,0,0,0}: PFC on priority 3).
     *
     * @return the enable vector, bit p for priority p
     */
    public static int parsePfc(String text) {
        String[] parts = text == null ? new String[0] : text.split(",", -1);
        if (parts.length != 8) {
            throw new IllegalArgumentException("pfc is eight comma-separated 0/1, priority 0 first (mlnx_qos's "
                + "0,0,0,1,0,0,0,0 for priority 3), not '" + text + "'");
        }
        int mask = 0;
        for (int p = 0; p < 8; p++) {
            switch (parts[p].trim()) {
                case "1" -> mask |= 1 << p;
                case "0" -> {
                }
                default -> throw new IllegalArgumentException("pfc is eight comma-separated 0/1, priority 0 first "
                    + "(mlnx_qos's 0,0,0,1,0,0,0,0 for priority 3), not '" + text + "'");
            }
        }
        return mask;
    }

    /** The enable vector as {@code mlnx_qos --pfc} takes it: {@code 0,0,0,1,0,0,0,0}. */
    public static String pfcText(int mask) {
        StringBuilder sb = new StringBuilder();
        for (int p = 0; p < 8; p++) {
            sb.append(p == 0 ? "" : ",").append((mask >> p) & 1);
        }
        return sb.toString();
    }

    /** One line, as a diagnostic prints it: {@code trust dscp, pfc 0,0,0,1,0,0,0,0, dcbx willing}. */
    public String summary() {
        return "trust " + trust + ", pfc " + pfcText(pfcEnable) + ", dcbx " + dcbx;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DcbSettings s && trust == s.trust && pfcEnable == s.pfcEnable && ets.equals(s.ets)
            && Arrays.equals(dscpToPriority, s.dscpToPriority) && dcbx == s.dcbx;
    }

    @Override
    public int hashCode() {
        return Objects.hash(trust, pfcEnable, ets, Arrays.hashCode(dscpToPriority), dcbx);
    }

    @Override
    public String toString() {
        return "DcbSettings[" + summary() + ", ets " + ets + "]";
    }
}
