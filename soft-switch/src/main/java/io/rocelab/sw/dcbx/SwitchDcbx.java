package io.rocelab.sw.dcbx;

import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.codec.lldp.DcbxApp;
import io.rocelab.codec.lldp.DcbxEts;
import io.rocelab.codec.lldp.DcbxPfc;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.QueueConfig;
import io.rocelab.sw.config.Trust;
import java.util.ArrayList;
import java.util.List;

/**
 * The DCBX TLVs a switch port advertises, worked out from its configuration (SONiC's
 * {@code PORT_QOS_MAP}, {@code SCHEDULER}/{@code QUEUE} and the DSCP/priority maps): not willing,
 * its PFC priorities, ETS and the RoCE application priorities. A switch is the authority of its
 * links: it never takes a NIC's settings, and a willing NIC takes its (IEEE 802.1Qaz-2011 D.2).
 *
 * <ul>
 * <li>PFC Configuration (D.2.10): not willing, capability 8, the enable vector of
 *     {@code PORT_QOS_MAP|port pfc_enable} ({@code "3,4"}: bits 3 and 4).</li>
 * <li>ETS Configuration and Recommendation (D.2.8, D.2.9), the same tables: an 802.1Qaz traffic
 *     class is one of the port's egress queues, the unit SONiC schedules ({@code QUEUE|port|q
 *     scheduler}, SAI's {@code SAI_QUEUE_ATTR_SCHEDULER_PROFILE_ID}). Priority p is in the traffic
 *     class of the queue its SONiC TC goes to ({@code tc_to_queue_map}); its TC is
 *     {@code dot1p_to_tc_map}[p] on a port that trusts 802.1p, else p itself (PFC pauses priority p
 *     where SONiC's TC p is). A strict {@code SCHEDULER} is TSA strict; a DWRR one is TSA ETS with
 *     its {@code weight}'s share, in whole percent, of the DWRR queues some priority uses (largest
 *     remainders round, so they sum to 100; SAI {@code SAI_SCHEDULER_ATTR_SCHEDULING_WEIGHT}).</li>
 * <li>Application Priority (D.2.11) on a port that trusts a header: RoCEv2 (UDP port 4791) and
 *     RoCEv1 (Ethertype 0x8915) at the lowest lossless priority, and on a port that trusts DSCP
 *     each DSCP whose TC ({@code dscp_to_tc_map}) is lossless, at that priority (selector 5,
 *     802.1Q-2014): with SONiC's AZURE map DSCP 3 at 3 and DSCP 4 at 4.</li>
 * </ul>
 */
public final class SwitchDcbx {
    private SwitchDcbx() {
    }

    /** What port {@code port} advertises; {@link Dcbx#NONE} for none. */
    public static Dcbx advertised(PortConfig port) {
        DcbxEts ets = ets(port, false);
        DcbxPfc pfc = new DcbxPfc(false, false, 8, port.pfcEnableMask());
        List<DcbxApp> apps = applications(port);
        return new Dcbx(ets, ets, pfc, apps.isEmpty() ? null : apps);
    }

    /** The SONiC TC of 802.1p priority {@code p} on {@code port}. */
    private static int tcOf(PortConfig port, int p) {
        return port.trust() == Trust.DOT1P ? port.dot1pToTc()[p] : p;
    }

    static DcbxEts ets(PortConfig port, boolean willing) {
        int[] priorityToTc = new int[8];
        boolean[] used = new boolean[8];
        for (int p = 0; p < 8; p++) {
            int q = port.tcToQueue()[tcOf(port, p)] & 7;
            priorityToTc[p] = q;
            used[q] = true;
        }
        int[] tsa = new int[8];
        long[] weight = new long[8];
        long total = 0;
        for (int q = 0; q < 8; q++) {
            QueueConfig qc = port.queues()[q];
            boolean strict = qc != null && qc.scheduler().strict();
            tsa[q] = strict ? DcbxEts.TSA_STRICT : DcbxEts.TSA_ETS;
            if (used[q] && !strict) {
                weight[q] = qc == null ? 1 : qc.scheduler().weight();
                total += weight[q];
            }
        }
        return new DcbxEts(willing, false, 8, priorityToTc, percent(weight, total), tsa);
    }

    /** Each weight's share of {@code total} in whole percent, the largest remainders rounded up to make 100. */
    private static int[] percent(long[] weight, long total) {
        int[] pct = new int[8];
        if (total == 0) {
            return pct;
        }
        long[] remainder = new long[8];
        int sum = 0;
        for (int q = 0; q < 8; q++) {
            pct[q] = (int) (weight[q] * 100 / total);
            remainder[q] = weight[q] * 100 % total;
            sum += pct[q];
        }
        while (sum < 100) {
            int best = -1;
            for (int q = 0; q < 8; q++) {
                if (weight[q] > 0 && (best < 0 || remainder[q] > remainder[best])) {
                    best = q;
                }
            }
            pct[best]++;
            remainder[best] = -1;
            sum++;
        }
        return pct;
    }

    private static List<DcbxApp> applications(PortConfig port) {
        List<DcbxApp> apps = new ArrayList<>();
        if (port.trust() == Trust.NONE || port.pfcEnableMask() == 0) {
            return apps;
        }
        int lossless = Integer.numberOfTrailingZeros(port.pfcEnableMask());
        apps.add(DcbxApp.rocev2(lossless));
        apps.add(new DcbxApp(lossless, DcbxApp.SELECTOR_ETHERTYPE, DcbxApp.ROCEV1_ETHERTYPE));
        if (port.trust() == Trust.DSCP) {
            for (int d = 0; d < 64; d++) {
                int tc = port.dscpToTc()[d];
                if (port.pfcEnabled(tc)) {
                    apps.add(DcbxApp.dscp(d, tc));
                }
            }
        }
        return apps;
    }
}
