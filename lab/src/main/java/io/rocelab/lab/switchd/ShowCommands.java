package io.rocelab.lab.switchd;

import io.rocelab.sw.SonicViews;
import io.rocelab.sw.routing.RoutingViews;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * SONiC's {@code show} and {@code sonic-clear} commands for a running {@link SwitchDaemon}: the
 * words after {@code show} name a view ({@code pfc counters}, {@code queue counters},
 * {@code interfaces counters}, {@code pfcwd stats}, {@code priority-group watermark},
 * {@code buffer_pool watermark}, {@code fdb counters}, {@code interfaces portchannel} (teamshow's
 * table with rocelab's LACP detail under it), {@code ip route} (FRR's) and {@code ip bgp summary}
 * (SONiC's), and rocelab's {@code ports}: each port's
 * attachment with its own counters); {@code clear counters} makes the counter
 * views count from zero, as {@code sonic-clear counters} does.
 */
public final class ShowCommands {
    /** The views, by the words SONiC's CLI uses for them. */
    private static final Map<String, Function<SwitchDaemon, String>> VIEWS = views();

    private static Map<String, Function<SwitchDaemon, String>> views() {
        Map<String, Function<SwitchDaemon, String>> m = new java.util.HashMap<>(Map.of(
            "interfaces counters", d -> SonicViews.interfaceCounters(d.counters()),
            "pfc counters", d -> SonicViews.pfcCounters(d.counters()),
            "queue counters", d -> SonicViews.queueCounters(d.counters()),
            "pfcwd stats", d -> SonicViews.pfcwdStats(d.counters()),
            "priority-group watermark", ShowCommands::watermarks,
            "buffer_pool watermark", ShowCommands::watermarks,
            "fdb counters", d -> SonicViews.crmFdb(d.counters()),
            "interfaces portchannel", ShowCommands::portChannels,
            "ports", SwitchDaemon::portAttachments));
        m.put("ip route", d -> d.onOwner(() -> RoutingViews.ipRoute(d.softSwitch())));
        m.put("ip bgp summary", d -> d.onOwner(() -> RoutingViews.bgpSummary(d.softSwitch())));
        m.put("ipv6 route", d -> d.onOwner(() -> RoutingViews.ipv6Route(d.softSwitch())));
        m.put("bfd peers brief", d -> d.onOwner(() -> RoutingViews.bfdPeersBrief(d.softSwitch())));
        return Map.copyOf(m);
    }

    /** What {@code show} accepts, for messages and help. */
    public static final List<String> NAMES = List.of("interfaces counters", "pfc counters", "queue counters",
        "pfcwd stats", "priority-group watermark [shared|headroom]", "buffer_pool watermark", "fdb counters",
        "interfaces portchannel", "ports", "ip route", "ipv6 route", "ip bgp summary", "bfd peers brief");

    private ShowCommands() {
    }

    /**
     * @param words e.g. {@code ["pfc", "counters"]}
     * @return the view's text
     * @throws IllegalArgumentException for words that name no view, in one line
     */
    public static String show(SwitchDaemon daemon, List<String> words) {
        String key = String.join(" ", words).toLowerCase(Locale.ROOT).strip();
        if (key.startsWith("priority-group watermark") && List.of("", " shared", " headroom")
            .contains(key.substring("priority-group watermark".length()))) {
            key = "priority-group watermark";
        }
        Function<SwitchDaemon, String> view = VIEWS.get(key);
        if (view == null) {
            throw new IllegalArgumentException("show " + String.join(" ", words) + ": unknown; try one of: "
                + String.join(", ", NAMES));
        }
        return view.apply(daemon);
    }

    /**
     * @param words {@code ["counters"]}
     * @return a line saying what was cleared
     */
    public static String clear(SwitchDaemon daemon, List<String> words) {
        if (!words.equals(List.of("counters"))) {
            throw new IllegalArgumentException("clear " + String.join(" ", words) + ": unknown; try: clear counters");
        }
        daemon.clearCounters();
        return "Cleared counters" + System.lineSeparator();
    }

    /** The port channels' LACP state is read on the switch's thread. */
    private static String portChannels(SwitchDaemon d) {
        return d.onOwner(() -> SonicViews.portChannels(d.softSwitch()));
    }

    /** The watermarks are read from the MMU, on the switch's thread. */
    private static String watermarks(SwitchDaemon d) {
        return d.onOwner(() -> SonicViews.watermarks(d.softSwitch()));
    }
}
