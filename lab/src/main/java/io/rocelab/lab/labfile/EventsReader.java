package io.rocelab.lab.labfile;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.timeline.Action;
import io.rocelab.topology.timeline.Draining;
import io.rocelab.topology.timeline.Event;
import io.rocelab.topology.timeline.FlowControl;
import io.rocelab.topology.timeline.LinkFaults;
import io.rocelab.topology.timeline.LinkState;
import io.rocelab.topology.timeline.PfcStorm;
import io.rocelab.topology.timeline.SilentPort;
import io.rocelab.topology.timeline.SwitchPower;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code events:}: the run's timeline, each entry {@code at} a time and one action on a link, a
 * port, a switch, a host's NIC or the flows, built as the topology's {@link Event} with its
 * {@link Action} ({@link LabEvent}, with where the file writes it). A {@code link-flap} is read as
 * its link-down and link-up events.
 */
final class EventsReader {
    /** The actions an event may take, as a file writes them (one each). */
    static final List<String> KINDS = List.of("link-down", "link-up", "link-faults", "pfc-storm", "pfc-storm-stop",
        "drain-stop", "drain-start", "flow-start", "flow-stop", "switch-down", "switch-up", "port-silent",
        "port-silent-stop", "link-flap");

    private EventsReader() {
    }

    /**
     * @param flows    the run's flows (flow-start and flow-stop name them)
     * @param duration the run's duration (an event happens before it)
     * @param modes    where the lab runs (in netns mode its links are veth pairs: no link, port or switch
     *                 failures)
     * @return the timeline in file order, a link-flap as its link-down and link-up events (mistakes reported)
     */
    static List<LabEvent> read(Section top, Topology topology, List<LabFlow> flows, long duration, Set<Mode> modes) {
        Problems problems = top.problems();
        List<LabEvent> out = new ArrayList<>();
        List<YNode> items = top.list("events");
        List<String> kinds = KINDS;
        List<String> keys = new ArrayList<>(kinds);
        keys.add(0, "at");
        for (int i = 0; i < items.size(); i++) {
            String path = "events[" + i + "]";
            Section e = Section.of(items.get(i), path, problems, keys.toArray(String[]::new));
            if (e == null) {
                continue;
            }
            if (!e.has("at")) {
                e.missing("at", "when it happens, e.g. at: 500us");
            }
            long at = e.time("at", 0);
            if (duration > 0 && at >= duration) {
                e.mistake("at", "at " + Quantity.formatNanos(at) + " the run is over (duration "
                    + Quantity.formatNanos(duration) + ")");
            }
            List<String> actions = e.map().entries().keySet().stream().filter(kinds::contains).toList();
            if (actions.size() != 1) {
                problems.add(e.map().loc(), path, "an event does one thing: one of " + String.join(", ", kinds)
                    + (actions.isEmpty() ? "" : " (this one has " + String.join(", ", actions) + ")"));
                continue;
            }
            String action = actions.get(0);
            Loc loc = e.loc(action);
            String p = path + "." + action;
            switch (action) {
                case "link-down", "link-up" -> {
                    String link = TopologyRefs.link(e, action, e.text(action), topology);
                    if (link != null) {
                        out.add(new LabEvent(new Event(at, new LinkState(link, action.equals("link-up"))), loc, p));
                    }
                }
                case "link-faults" -> {
                    Section f = e.section(action, "link", "loss", "corrupt", "duplicate");
                    if (f == null) {
                        continue;
                    }
                    String link = TopologyRefs.link(f, "link", f.text("link"), topology);
                    double loss = f.fraction("loss", 0);
                    double corrupt = f.fraction("corrupt", 0);
                    double dup = f.fraction("duplicate", 0);
                    if (link != null) {
                        out.add(new LabEvent(new Event(at, new LinkFaults(link, FaultProfile.NONE.withLoss(loss)
                            .withCorruption(corrupt).withDuplication(dup))), loc, p));
                    }
                }
                case "pfc-storm", "pfc-storm-stop" -> {
                    YNode v = e.get(action);
                    String host;
                    int prio = topology == null || topology.qos() == null ? 3 : Math.max(0, topology.qos().pfcPriority());
                    if (v instanceof YNode.YMap) {
                        Section s = e.section(action, "host", "priority");
                        if (s == null) {
                            continue;
                        }
                        host = s.text("host");
                        prio = (int) s.integer("priority", prio, 0, 7);
                        if (host == null) {
                            s.missing("host", "the host that sends the storm");
                            continue;
                        }
                    } else {
                        host = e.text(action);
                    }
                    if (TopologyRefs.host(e, action, host, topology)) {
                        out.add(new LabEvent(new Event(at, new PfcStorm(host, prio, action.equals("pfc-storm"))), loc,
                            p));
                    }
                }
                case "switch-down", "switch-up" -> {
                    String sw = e.text(action);
                    if (sw != null && topology != null) {
                        if (topology.node(sw) instanceof SwitchNode) {
                            out.add(new LabEvent(new Event(at, new SwitchPower(sw, action.equals("switch-up"))), loc,
                                p));
                        } else {
                            String near = Section.closest(sw, topology.switches().stream().map(SwitchNode::name)
                                .toList());
                            e.mistake(action, topology.node(sw) != null ? "'" + sw + "' is a host, not a switch"
                                : "unknown switch '" + sw + "'" + (near != null ? " (did you mean '" + near + "'?)" : ""));
                        }
                    }
                }
                case "port-silent", "port-silent-stop" -> {
                    String end = e.text(action);
                    if (end == null || topology == null) {
                        continue;
                    }
                    Attachment at0 = Attachment.parse(end);
                    if (topology.linkAt(at0) != null) {
                        out.add(new LabEvent(new Event(at, new SilentPort(at0.toString(),
                            action.equals("port-silent"))), loc, p));
                    } else {
                        e.mistake(action, "no port '" + end + "': " + (topology.node(at0.node()) == null
                            ? "unknown node '" + at0.node() + "'" : "nothing is cabled to " + at0)
                            + " (a port is node:port, e.g. leaf0:Ethernet8, or a host's name)");
                    }
                }
                case "link-flap" -> {
                    Section f = e.section(action, "link", "times", "down", "up");
                    if (f == null) {
                        continue;
                    }
                    String link = TopologyRefs.link(f, "link", f.text("link"), topology);
                    long times = f.integer("times", 3, 1, 1000);
                    long down = f.nanos("down", 50_000);
                    long up = f.nanos("up", 100_000);
                    if (down <= 0 || up <= 0) {
                        f.mistake(down <= 0 ? "down" : "up", "must be longer than 0");
                        continue;
                    }
                    long last = at + times * down + (times - 1) * up;
                    if (duration > 0 && last >= duration) {
                        f.mistake("times", "the last flap ends at " + Quantity.formatNanos(last)
                            + ", after the run (duration " + Quantity.formatNanos(duration) + ")");
                        continue;
                    }
                    for (long k = 0, t0 = at; link != null && k < times; k++, t0 += down + up) {
                        out.add(new LabEvent(new Event(t0, new LinkState(link, false)), loc, p));
                        out.add(new LabEvent(new Event(t0 + down, new LinkState(link, true)), loc, p));
                    }
                }
                case "drain-stop", "drain-start" -> {
                    String host = e.text(action);
                    if (TopologyRefs.host(e, action, host, topology)) {
                        out.add(new LabEvent(new Event(at, new Draining(host, action.equals("drain-start"))), loc, p));
                    }
                }
                case "flow-start", "flow-stop" -> {
                    String which = e.text(action);
                    if (which == null || topology == null) {
                        continue;
                    }
                    List<String> matched = new ArrayList<>();
                    Pattern g = HostPattern.glob(which);
                    for (LabFlow f : flows) {
                        if (f.name().equals(which) || f.group().equals(which) || g.matcher(f.name()).matches()) {
                            matched.add(f.name());
                        }
                    }
                    if (matched.isEmpty()) {
                        String near = Section.closest(which, flows.stream().map(LabFlow::name).toList());
                        e.mistake(action, "no flow '" + which + "'" + (near != null ? " (did you mean '" + near + "'?)"
                            : ""));
                    }
                    for (String m : matched) {
                        out.add(new LabEvent(new Event(at, new FlowControl(m, action.equals("flow-start"))), loc, p));
                    }
                }
                default -> throw new IllegalStateException(action);
            }
        }
        if (modes.contains(Mode.NETNS)) {
            for (LabEvent e : out) {
                Action a = e.event().action();
                if (!(a instanceof PfcStorm || a instanceof Draining || a instanceof FlowControl)) {
                    problems.add(e.loc(), e.path(), "a lab that runs in netns mode has no link, port or switch "
                        + "failures: its links are veth pairs (take netns out of modes)");
                }
            }
        }
        return out;
    }
}
