package io.rocelab.lab.run;

import io.rocelab.fabric.lldp.LldpAgent;
import io.rocelab.fabric.lldp.LldpNeighbor;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.nic.NicLldp;
import io.rocelab.nic.SoftNic;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.lldp.LldpSettings;
import io.rocelab.sw.lldp.SwitchLldp;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.SwitchNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A lab's LLDP ({@code lldp: true}): started on every switch port and soft NIC port before the
 * routing settles and the workload starts, and, at the end, what each port heard, as lines of the
 * report ({@code LLDP: leaf0 Ethernet0 hears host-a port 1 (mac 02:..)}). Off by default, so a lab
 * without the key sends not one frame more.
 */
final class LabLldp {
    private LabLldp() {
    }

    /** Starts LLDP on the fabric's switches and NICs if the run asks for it (on the fabric's thread). */
    static void start(RunClock clock, Fabric fabric, RunSpec run) {
        if (!run.lldp()) {
            return;
        }
        clock.onFabric(fabric, () -> {
            for (SwitchNode s : run.topology().switches()) {
                fabric.softSwitch(s.name()).startLldp(LldpSettings.DEFAULT);
            }
            for (String h : run.nicHosts()) {
                SoftNic nic = fabric.nic(h);
                if (nic != null) {
                    nic.startLldp(h);
                }
            }
            return null;
        });
    }

    /** What every port heard, one line each (on the fabric's thread); none without LLDP. */
    static List<String> lines(RunClock clock, Fabric fabric, RunSpec run) {
        if (!run.lldp()) {
            return List.of();
        }
        return clock.onFabric(fabric, () -> {
            List<String> out = new ArrayList<>();
            for (SwitchNode s : run.topology().switches()) {
                SoftSwitch sw = fabric.softSwitch(s.name());
                SwitchLldp lldp = sw.lldp();
                for (int i = 0; i < lldp.ports(); i++) {
                    line(out, s.name() + " " + sw.config().ports().get(i).name(), lldp.agent(i));
                }
            }
            for (String h : run.nicHosts()) {
                SoftNic nic = fabric.nic(h);
                NicLldp lldp = nic == null ? null : nic.lldp();
                if (lldp != null) {
                    for (int p = 1; p <= lldp.ports(); p++) {
                        line(out, h + " port " + p, lldp.agent(p));
                    }
                }
            }
            return out;
        });
    }

    private static void line(List<String> out, String port, LldpAgent a) {
        LldpNeighbor n = a.neighbor();
        if (n == null) {
            if (a.framesIn() > 0 || a.framesDiscarded() > 0) {
                out.add("LLDP: " + port + " hears no one now (" + a.framesIn() + " LLDPDUs in, " + a.ageouts()
                    + " aged out)");
            }
            return;
        }
        var pdu = n.pdu();
        out.add("LLDP: " + port + " hears " + (pdu.systemName() == null ? "(no name)" : pdu.systemName()) + " "
            + (pdu.portDescription() == null ? pdu.portId().value() : pdu.portDescription()) + " ("
            + pdu.portId().kind(false) + " " + pdu.portId().value() + ", chassis " + pdu.chassisId().value()
            + ", ttl " + pdu.ttl() + (pdu.dcbx().isEmpty() ? "" : ", DCBX") + "); LLDPDUs out " + a.framesOut()
            + ", in " + a.framesIn() + ", discarded " + a.framesDiscarded() + ", aged out " + a.ageouts());
    }
}
