package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.Cable;
import io.rocelab.lab.check.FabricView.End;
import io.rocelab.lab.check.FabricView.NicView;
import io.rocelab.sw.config.PortConfig;
import java.util.List;

/**
 * The two ends of a cable run PFC on the same priorities (IEEE 802.1Qbb: a PFC frame names priorities,
 * and only a receiver with PFC on a priority stops it). Switch to switch, {@code PORT_QOS_MAP pfc_enable}
 * at both ends; NIC to switch, the NIC's operational priorities (a DCBX-willing NIC takes the switch
 * port's, a NIC that is not willing keeps its own, {@link NicQosView#operationalMask}).
 */
final class PfcAgreement implements FabricCheck {
    @Override
    public void check(FabricView f, List<Finding> out) {
        for (Cable c : f.cables()) {
            PortConfig a = Ports.at(f, c.a());
            PortConfig b = Ports.at(f, c.b());
            if (a != null && b != null) {
                if (a.pfcEnableMask() != b.pfcEnableMask()) {
                    out.add(new Finding(f.switchNamed(c.a().node()).file(), "PORT_QOS_MAP", a.name(), "",
                        "pfc_enable " + Ports.priorities(a.pfcEnableMask()) + " here, "
                            + Ports.priorities(b.pfcEnableMask()) + " at " + c.b() + " (the other end of the cable)"));
                }
            } else if (a != null || b != null) {
                End sw = a != null ? c.a() : c.b();
                PortConfig port = a != null ? a : b;
                NicView nic = f.nicAt(c.other(sw));
                if (nic == null) {
                    continue;
                }
                // what matters is a priority the switch pauses that the NIC does not act on: those
                // frames run on into a headroom sized for a sender that stops (a NIC acting on more
                // priorities than its switch pauses loses nothing)
                int op = nic.qos().operationalMask(port.pfcEnableMask());
                if ((port.pfcEnableMask() & ~op) != 0) {
                    out.add(new Finding(nic.file(), "", "nics.pfc", "", "the NIC runs PFC on priorities "
                        + Ports.priorities(op) + " (" + Ports.mlnxQos(op) + ", its own: DCBX off or no LLDP), "
                        + sw + " on " + Ports.priorities(port.pfcEnableMask())
                        + " (pfc_enable, the other end of the cable): it does not stop for the switch's pauses on "
                        + Ports.priorities(port.pfcEnableMask() & ~op)));
                }
            }
        }
    }
}
