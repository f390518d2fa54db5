package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.Cable;
import io.rocelab.lab.check.FabricView.End;
import io.rocelab.lab.check.FabricView.NicView;
import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.HeadroomModel;
import io.rocelab.sw.config.PortConfig;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A lossless PG's headroom ({@code BUFFER_PROFILE xoff}, SAI's {@code XOFF_TH}) holds what still
 * arrives after it pauses: SONiC's formula ({@link HeadroomModel}, {@code buffer_headroom_mellanox.lua})
 * with Spectrum's figures, the cable's real length (a lab's link, whatever {@code CABLE_LENGTH} the switch
 * was told; between two config files the longer of the two ends' {@code CABLE_LENGTH}), the port's speed
 * and MTU, and the response of what is at the other end: a NIC's {@code pause-response}, a switch
 * port's as the fabric's assumptions say (a soft switch's is IEEE 802.3's bound for its speed; SONiC's
 * static profiles assume 3.8 KiB).
 */
final class HeadroomCheck implements FabricCheck {
    /** Spectrum-1's figures, the peer response left to the caller: cell 96, 18 KiB pipeline, 0.8 KiB MAC/PHY. */
    private static HeadroomModel model(double peerResponseBytes) {
        return new HeadroomModel(96, 18 * 1024, 0.8 * 1024, peerResponseBytes, false, 1.5 * 1024, 100, 0);
    }

    /** SONiC's assumed peer response of its static profiles ({@code pg_profile_lookup.ini}). */
    static final double SONIC_PEER_RESPONSE = 3.8 * 1024;

    @Override
    public void check(FabricView f, List<Finding> out) {
        for (SwitchView s : f.switches()) {
            for (PortConfig p : f.livePorts(s)) {
                End here = new End(s.name(), p.name());
                Cable cable = f.cableAt(here);
                int meters = p.cableMeters();
                String length = "CABLE_LENGTH " + meters + "m";
                if (cable != null && cable.meters() >= 0) {
                    meters = cable.meters();
                    length = cable.how();
                } else if (cable != null) {
                    PortConfig other = Ports.at(f, cable.other(here));
                    if (other != null && other.cableMeters() > meters) {
                        meters = other.cableMeters();
                        length = "CABLE_LENGTH " + p.cableMeters() + "m here, " + meters + "m at " + cable.other(here);
                    }
                }
                NicView nic = cable == null ? null : f.nicAt(cable.other(here));
                long speed = p.speedBitsPerSecond();
                double response;
                String who;
                if (nic != null) {
                    response = nic.response().bytesAt(speed);
                    who = "the NIC's pause response (" + nic.response() + ": " + (long) response + " bytes)";
                } else if (f.assume().switchResponse() != null) {
                    response = f.assume().switchResponse().bytesAt(speed);
                    who = f.assume().responseWhy() + ", " + (long) response + " bytes";
                } else {
                    response = SONIC_PEER_RESPONSE;
                    who = f.assume().responseWhy();
                }
                long need = model(response).compute(speed, meters, p.mtu()).xoff();
                Set<Integer> seen = new HashSet<>();
                for (int tc = 0; tc < 8; tc++) {
                    int pg = p.tcToPg()[tc];
                    BufferProfile prof = p.pgProfiles()[pg];
                    if (!p.pfcEnabled(tc) || prof == null || !prof.lossless() || !seen.add(pg) || prof.xoff() >= need) {
                        continue;
                    }
                    out.add(new Finding(s.file(), "BUFFER_PG", p.name(), String.valueOf(pg), String.format(Locale.ROOT,
                        "headroom (xoff) %d of '%s' is below the %d bytes SONiC's headroom formula gives for %s, %s,"
                            + " MTU %d and %s", prof.xoff(), prof.name(), need, gbps(speed), length, p.mtu(), who)));
                }
            }
        }
    }

    private static String gbps(long bps) {
        return bps % 1_000_000_000L == 0 ? bps / 1_000_000_000L + " Gb/s" : bps / 1_000_000L + " Mb/s";
    }
}
