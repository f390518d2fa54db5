package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.PortConfig;
import java.util.List;

/**
 * Every port with PFC has the PFC watchdog ({@code PFC_WD|Ethernet0}, SONiC's {@code pfcwd start}): a
 * link partner that never stops pausing (a stuck NIC, a storm) holds a lossless queue for good, and the
 * pause spreads upstream hop by hop (labs pfc-storm, pfc-storm-spreading, pfc-deadlock). SONiC's
 * {@code pfcwd_sw_enable} is not read: a port's entry watches all its lossless queues.
 */
final class WatchdogCheck implements FabricCheck {
    @Override
    public void check(FabricView f, List<Finding> out) {
        for (SwitchView s : f.switches()) {
            for (PortConfig p : f.livePorts(s)) {
                if (p.pfcEnableMask() != 0 && p.pfcWd() == null) {
                    StringBuilder queues = new StringBuilder();
                    for (int tc = 0; tc < 8; tc++) {
                        if (p.pfcEnabled(tc)) {
                            queues.append(queues.isEmpty() ? "" : ",").append(p.tcToQueue()[tc]);
                        }
                    }
                    out.add(new Finding(s.file(), "PFC_WD", p.name(), "", "no PFC watchdog on lossless queue(s) "
                        + queues + " (pfc_enable " + Ports.priorities(p.pfcEnableMask()) + "): a link partner that"
                        + " never stops pausing stalls them for good, and the pauses spread upstream"));
                }
            }
        }
    }
}
