package io.rocelab.lab.switchd;

import io.rocelab.sw.RoutingViews;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.SonicViews;
import io.rocelab.sw.acl.AclViews;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * SONiC's {@code show} and {@code sonic-clear} commands for a running {@link SwitchDaemon}: the
 * words after {@code show} name a view ({@code pfc counters}, {@code queue counters},
 * {@code interfaces counters}, {@code pfcwd stats}, {@code priority-group watermark shared|headroom},
 * {@code priority-group persistent-watermark shared|headroom}, {@code buffer_pool watermark},
 * {@code buffer_pool persistent-watermark}, {@code headroom-pool watermark},
 * {@code priority-group drop counters} (read from the MMU on the
 * switch's thread), {@code fdb counters}, {@code interfaces portchannel} (teamshow's
 * table with rocelab's LACP detail under it), {@code ip route} and {@code ipv6 route} (FRR's),
 * {@code ip bgp summary} (SONiC's), {@code bfd peers brief} (FRR's), {@code acl table} and {@code acl rule}
 * and {@code mirror_session} (acl-loader's), {@code acl counters} (the table {@code aclshow -a} prints),
 * {@code lldp neighbors} (lldpctl's), {@code lldp table} (lldpshow's), {@code lldp statistics} (lldpcli's),
 * {@code pause counters} (rocelab's, laid out as {@code show pfc counters}), {@code sflow} and {@code sflow interface}
 * (sonic-utilities'), {@code sflow counters} (rocelab's: datagrams and samples), {@code ars_nhg_counters} (the Local
 * ARS HLD's: each ECMP group's load-balancing mode and next-hop reassignments), {@code vxlan tunnel},
 * {@code vxlan interface}, {@code vxlan vlanvnimap}, {@code vxlan remotevni all}, {@code vxlan remotevtep},
 * {@code vxlan remotemac all} and {@code vxlan counters} (sonic-utilities' show/vxlan.py and tunnelstat), and rocelab's {@code ports}: each port's
 * attachment with its own counters); {@code clear counters} makes the counter
 * views count from zero, as {@code sonic-clear counters} does, and {@code clear watermark} starts the
 * watermark views again (the persistent-watermark views keep their peak), as {@code sonic-clear
 * watermark} does, and {@code clear acl} the ACL rules' counters, as {@code sonic-clear acl} ({@code aclshow -c}) does.
 */
public final class ShowCommands {
    /** The views, by the words SONiC's CLI uses for them. */
    private static final Map<String, Function<SwitchDaemon, String>> VIEWS = Map.ofEntries(
        Map.entry("interfaces counters", d -> SonicViews.interfaceCounters(d.counters())),
        Map.entry("pfc counters", d -> SonicViews.pfcCounters(d.counters())),
        Map.entry("queue counters", d -> SonicViews.queueCounters(d.counters())),
        Map.entry("pfcwd stats", d -> SonicViews.pfcwdStats(d.counters())),
        Map.entry("priority-group watermark", onSwitch(sw -> SonicViews.watermarks(sw))),
        Map.entry("priority-group watermark shared", onSwitch(sw -> SonicViews.pgWatermark(sw, false, false))),
        Map.entry("priority-group watermark headroom", onSwitch(sw -> SonicViews.pgWatermark(sw, true, false))),
        Map.entry("priority-group persistent-watermark shared", onSwitch(sw -> SonicViews.pgWatermark(sw, false, true))),
        Map.entry("priority-group persistent-watermark headroom", onSwitch(sw -> SonicViews.pgWatermark(sw, true, true))),
        Map.entry("buffer_pool watermark", onSwitch(sw -> SonicViews.bufferPoolWatermark(sw, false))),
        Map.entry("buffer_pool persistent-watermark", onSwitch(sw -> SonicViews.bufferPoolWatermark(sw, true))),
        Map.entry("headroom-pool watermark", onSwitch(sw -> SonicViews.headroomPoolWatermark(sw))),
        Map.entry("priority-group drop counters", onSwitch(sw -> SonicViews.pgDropCounters(sw))),
        Map.entry("fdb counters", d -> SonicViews.crmFdb(d.counters())),
        Map.entry("interfaces portchannel", ShowCommands::portChannels),
        Map.entry("ports", SwitchDaemon::portAttachments),
        Map.entry("ip route", onSwitch(RoutingViews::ipRoute)),
        Map.entry("ip bgp summary", onSwitch(RoutingViews::bgpSummary)),
        Map.entry("ipv6 route", onSwitch(RoutingViews::ipv6Route)),
        Map.entry("bfd peers brief", onSwitch(RoutingViews::bfdPeersBrief)),
        Map.entry("pause counters", d -> SonicViews.pauseCounters(d.counters())),
        Map.entry("acl table", d -> AclViews.tables(d.softSwitch().config().acl())),
        Map.entry("acl rule", d -> AclViews.rules(d.softSwitch().config().acl())),
        Map.entry("acl counters", onSwitch(sw -> AclViews.counters(sw.config().acl(), sw.aclCounters()))),
        Map.entry("mirror_session", d -> AclViews.sessions(d.softSwitch().config().acl())),
        Map.entry("lldp neighbors", onSwitch(sw -> io.rocelab.sw.lldp.LldpViews.neighbors(lldpPorts(sw),
            sw.clock().fresh()))),
        Map.entry("lldp table", onSwitch(sw -> io.rocelab.sw.lldp.LldpViews.table(lldpPorts(sw)))),
        Map.entry("lldp statistics", onSwitch(sw -> io.rocelab.sw.lldp.LldpViews.statistics(lldpPorts(sw)))),
        Map.entry("sflow", d -> io.rocelab.sw.sflow.SflowViews.global(d.softSwitch().config().sflow())),
        Map.entry("sflow interface", d -> io.rocelab.sw.sflow.SflowViews.interfaces(d.softSwitch().config())),
        Map.entry("sflow counters", onSwitch(ShowCommands::sflowCounters)),
        Map.entry("ars_nhg_counters", onSwitch(sw -> io.rocelab.sw.forward.ArsViews.nhgCounters(sw.forwarding()))),
        Map.entry("vxlan tunnel", d -> io.rocelab.sw.vxlan.VxlanViews.tunnel(d.softSwitch().config().vxlan())),
        Map.entry("vxlan vlanvnimap", d -> io.rocelab.sw.vxlan.VxlanViews.vlanVniMap(d.softSwitch().config().vxlan())),
        Map.entry("vxlan interface", d -> io.rocelab.sw.vxlan.VxlanViews.interfaces(d.softSwitch().config().vxlan())),
        Map.entry("vxlan remotevni all",
            d -> io.rocelab.sw.vxlan.VxlanViews.remoteVni(d.softSwitch().config().vxlan())),
        Map.entry("vxlan remotevtep", onSwitch(sw -> io.rocelab.sw.vxlan.VxlanViews.remoteVtep(sw.vtep(),
            ip -> sw.forwarding().routes().lookup(ip) != null))),
        Map.entry("vxlan remotemac all", onSwitch(sw -> io.rocelab.sw.vxlan.VxlanViews.remoteMac(sw.vtep(),
            sw.scheduler().nanoTime()))),
        Map.entry("vxlan counters", onSwitch(sw -> io.rocelab.sw.vxlan.VxlanViews.counters(sw.vtep()))));

    /** What {@code show} accepts, for messages and help. */
    public static final List<String> NAMES = List.of("interfaces counters", "pfc counters", "queue counters",
        "pfcwd stats", "priority-group watermark [shared|headroom]", "priority-group persistent-watermark shared|headroom",
        "buffer_pool watermark", "buffer_pool persistent-watermark", "headroom-pool watermark",
        "priority-group drop counters", "fdb counters",
        "interfaces portchannel", "ports", "ip route", "ipv6 route", "ip bgp summary", "bfd peers brief",
        "pause counters", "acl table", "acl rule", "acl counters", "mirror_session", "lldp neighbors", "lldp table",
        "lldp statistics", "sflow", "sflow interface", "sflow counters", "ars_nhg_counters", "vxlan tunnel",
        "vxlan interface", "vxlan vlanvnimap", "vxlan remotevni all", "vxlan remotevtep", "vxlan remotemac all",
        "vxlan counters");

    private ShowCommands() {
    }

    /** A view of the switch's MMU, read on the switch's thread. */
    private static Function<SwitchDaemon, String> onSwitch(Function<SoftSwitch, String> view) {
        return d -> d.onOwner(() -> view.apply(d.softSwitch()));
    }

    /**
     * @param words e.g. {@code ["pfc", "counters"]}
     * @return the view's text
     * @throws IllegalArgumentException for words that name no view, in one line
     */
    public static String show(SwitchDaemon daemon, List<String> words) {
        String key = String.join(" ", words).toLowerCase(Locale.ROOT).strip();
        Function<SwitchDaemon, String> view = VIEWS.get(key);
        if (view == null) {
            throw new IllegalArgumentException("show " + String.join(" ", words) + ": unknown; try one of: "
                + String.join(", ", NAMES));
        }
        return view.apply(daemon);
    }

    /**
     * @param words {@code ["counters"]} or {@code ["watermark"]}
     * @return a line saying what was cleared
     */
    public static String clear(SwitchDaemon daemon, List<String> words) {
        if (words.equals(List.of("counters"))) {
            daemon.clearCounters();
            return "Cleared counters" + System.lineSeparator();
        }
        if (words.equals(List.of("watermark"))) {
            daemon.clearWatermarks();
            return "Cleared watermarks" + System.lineSeparator();
        }
        if (words.equals(List.of("acl"))) {
            daemon.onOwner(() -> {
                daemon.softSwitch().clearAclCounters();
                return null;
            });
            return "Cleared ACL counters" + System.lineSeparator();
        }
        throw new IllegalArgumentException("clear " + String.join(" ", words)
            + ": unknown; try: clear counters, clear watermark, clear acl");
    }

    /** rocelab's {@code show sflow counters}: the agent's datagrams and samples, or a line saying sFlow is off. */
    private static String sflowCounters(SoftSwitch sw) {
        return sw.sflow() == null ? "sFlow is not running (SFLOW|global admin_state down, or no SFLOW_COLLECTOR)"
            + System.lineSeparator() : io.rocelab.sw.sflow.SflowViews.counters(sw.sflow().counters());
    }

    /** The switch's ports with their LLDP agents (none when LLDP is off: FEATURE|lldp disabled). */
    private static List<io.rocelab.sw.lldp.LldpViews.Port> lldpPorts(SoftSwitch sw) {
        java.util.ArrayList<io.rocelab.sw.lldp.LldpViews.Port> ports = new java.util.ArrayList<>();
        if (sw.lldp() != null) {
            for (int i = 0; i < sw.lldp().ports(); i++) {
                ports.add(new io.rocelab.sw.lldp.LldpViews.Port(sw.config().ports().get(i).name(), sw.lldp().agent(i)));
            }
        }
        return ports;
    }

    /** The port channels' LACP state is read on the switch's thread. */
    private static String portChannels(SwitchDaemon d) {
        return d.onOwner(() -> SonicViews.portChannels(d.softSwitch()));
    }

}
