package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.End;
import io.rocelab.lab.check.FabricView.NicView;
import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.Trust;
import java.util.List;

/**
 * A port with PFC that trusts PCP ({@code dot1p_to_tc_map} bound, no {@code dscp_to_tc_map}) sits on a
 * tagged link: an untagged frame has no PCP, so the classifier puts every frame in TC 0 and the lossless
 * class is lossy there (IEEE 802.1Q 6.9: an untagged frame takes the port's default priority). The link
 * is tagged when the port is a tagged {@code VLAN_MEMBER}, or its NIC tags its frames. The same holds at
 * a NIC that trusts PCP (mlnx_qos {@code --trust pcp}) and sends untagged: its frames have no PCP and
 * leave at priority 0, so the switch's pauses for the lossless priority do not stop them. A willing NIC
 * behind a DSCP-trusting switch port with LLDP running trusts DSCP once it takes the port's DSCP
 * application priorities (mlx5 switches to DSCP trust on the first one), so it is not one.
 */
final class PcpTrust implements FabricCheck {
    @Override
    public void check(FabricView f, List<Finding> out) {
        for (NicView nic : f.nics()) {
            End here = new End(nic.host(), nic.port());
            var cable = f.cableAt(here);
            PortConfig port = cable == null ? null : Ports.at(f, cable.other(here));
            int op = port == null ? 0 : nic.qos().operationalMask(port.pfcEnableMask());
            boolean adoptsDscp = nic.qos().willing() && port != null && port.trust() == Trust.DSCP;
            if (nic.qos().trust() == io.rocelab.nic.dcb.DcbSettings.Trust.PCP && !adoptsDscp && nic.vlanId() == 0 && op != 0) {
                out.add(new Finding(nic.file(), "", "nics.trust", "", "the NIC trusts PCP but its link is untagged:"
                    + " its frames leave at priority 0, which the switch's pauses (PFC on " + Ports.priorities(op)
                    + ") do not stop"));
            }
        }
        for (SwitchView s : f.switches()) {
            for (PortConfig p : f.livePorts(s)) {
                if (p.trust() != Trust.DOT1P || p.pfcEnableMask() == 0 || Ports.taggedMember(p)) {
                    continue;
                }
                End here = new End(s.name(), p.name());
                var cable = f.cableAt(here);
                NicView nic = cable == null ? null : f.nicAt(cable.other(here));
                if (nic != null && nic.vlanId() != 0) {
                    continue;
                }
                out.add(new Finding(s.file(), "PORT_QOS_MAP", p.name(), "", "trusts PCP (dot1p_to_tc_map, no"
                    + " dscp_to_tc_map) on an untagged link (no tagged VLAN_MEMBER" + (nic != null ? ", " + nic.host()
                    + " sends untagged" : "") + "): every frame lands in TC 0, and the lossless class (pfc_enable "
                    + Ports.priorities(p.pfcEnableMask()) + ") with it"));
            }
        }
    }
}
