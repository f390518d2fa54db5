package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SchedulerConfig;
import io.rocelab.sw.config.Trust;
import java.util.List;

/**
 * The CNPs' class (DSCP 48 by default, mlx5's {@code cnp_dscp}) is neither paused nor kept waiting
 * behind the lossless class it reports on: DCQCN's notification point sends them when the lossless queue
 * is congested, and a CNP that waits in that congestion, or is stopped by the pause it should make
 * needless, comes too late. So its traffic class has no PFC, and its queue is strict
 * ({@code SCHEDULER type STRICT}) above the lossless class's queue (rocelab's scheduler, as SAI's strict
 * priority, serves strict queues first, the higher index first).
 */
final class CnpClass implements FabricCheck {
    @Override
    public void check(FabricView f, List<Finding> out) {
        int cnp = f.assume().cnpDscp();
        for (SwitchView s : f.switches()) {
            for (PortConfig p : f.livePorts(s)) {
                if (p.trust() != Trust.DSCP || p.pfcEnableMask() == 0) {
                    continue;
                }
                int tcC = p.dscpToTc()[cnp];
                int qC = p.tcToQueue()[tcC];
                if (p.pfcEnabled(tcC)) {
                    out.add(new Finding(s.file(), "PORT_QOS_MAP", p.name(), "", "CNPs (DSCP " + cnp + ") land in TC "
                        + tcC + ", which has PFC (pfc_enable " + Ports.priorities(p.pfcEnableMask()) + "): a pause holds"
                        + " back the notifications that would make it needless"));
                    continue;
                }
                SchedulerConfig sc = p.queues()[qC].scheduler();
                for (int tc = 0; tc < 8; tc++) {
                    if (!p.pfcEnabled(tc)) {
                        continue;
                    }
                    int qR = p.tcToQueue()[tc];
                    SchedulerConfig sr = p.queues()[qR].scheduler();
                    boolean above = qC != qR && sc.strict() && (!sr.strict() || qC > qR);
                    if (!above) {
                        out.add(new Finding(s.file(), "QUEUE", p.name(), String.valueOf(qC), "CNPs (DSCP " + cnp
                            + ", TC " + tcC + ") leave by queue " + qC + ", " + Ports.scheduling(sc)
                            + (qC == qR ? ", the lossless class's own queue" : ", not strict above the lossless class's"
                                + " queue " + qR + ", " + Ports.scheduling(sr)) + ": they wait behind the congestion they"
                            + " report"));
                        break;
                    }
                }
            }
        }
    }
}
