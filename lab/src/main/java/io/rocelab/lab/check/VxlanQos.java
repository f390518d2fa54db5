package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.TunnelDscpMode;
import io.rocelab.sw.config.TunnelEcnMode;
import io.rocelab.sw.config.VxlanConfig;
import java.util.List;

/**
 * A VTEP carries the lossless class across the underlay only if the underlay can see it: in
 * {@code dscp_mode pipe} the outer DSCP is the tunnel's {@code encap_dscp}, and a lossless DSCP whose
 * outer DSCP lands in a traffic class without PFC is lossy from the first underlay hop on (labs
 * vxlan-tenants, pipe_one_vtep); with {@code ecn_mode ignore_outer} the underlay's ECN marks never
 * reach the receivers, so DCQCN cannot react and PFC alone holds the class (decap_ignores_ce).
 * The underlay's classification is read from the VTEP's first cabled port in no extended VLAN (an
 * uplink: part of the underlay), the usual case of one QoS profile over the fabric.
 */
final class VxlanQos implements FabricCheck {
    @Override
    public void check(FabricView f, List<Finding> out) {
        for (SwitchView s : f.switches()) {
            VxlanConfig v = s.config().vxlan();
            if (v.isEmpty()) {
                continue;
            }
            List<PortConfig> ports = f.livePorts(s);
            if (ports.isEmpty()) {
                continue;
            }
            VxlanConfig.Tunnel t = v.tunnel();
            PortConfig underlay = underlay(ports, v);
            if (t.dscpMode() == TunnelDscpMode.PIPE && underlay != null) {
                for (int dscp : f.losslessDscps()) {
                    int outer = t.dscpMode().outer(dscp, t.encapDscp());
                    int tc = Ports.tc(underlay, outer, -1);
                    if (!underlay.pfcEnabled(tc)) {
                        out.add(new Finding(s.file(), "VXLAN_TUNNEL", t.name(), "", "dscp_mode pipe: the lossless DSCP "
                            + dscp + " leaves in outer DSCP " + outer + ", TC " + tc + " without PFC in the underlay: the"
                            + " tenants' RDMA is lossy across the tunnel (dscp_mode uniform keeps the class)"));
                    }
                }
            }
            if (t.ecnMode() == TunnelEcnMode.IGNORE_OUTER) {
                out.add(new Finding(s.file(), "VXLAN_TUNNEL", t.name(), "", "ecn_mode ignore_outer: the underlay's"
                    + " ECN marks never reach the receivers, so DCQCN cannot react and PFC alone holds the lossless"
                    + " class (ecn_mode standard, RFC 6040, carries them)"));
            }
        }
    }

    /** @return the first port in no VLAN the tunnel extends, or null */
    private static PortConfig underlay(List<PortConfig> ports, VxlanConfig v) {
        for (PortConfig p : ports) {
            boolean overlay = false;
            for (VxlanConfig.TunnelMap m : v.maps()) {
                overlay |= p.vlans() != null && p.vlans().isMember(m.vid());
            }
            if (!overlay) {
                return p;
            }
        }
        return null;
    }
}
