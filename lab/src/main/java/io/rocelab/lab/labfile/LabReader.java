package io.rocelab.lab.labfile;

import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads and checks a lab file (the format is {@code labs/README.md}'s): every mistake is found in
 * one pass and reported with its line, column and key path; a file with none becomes a
 * {@link LabFile}, one {@link RunSpec} per variant. Each section has its reader, which builds what
 * the section says ({@link TopologyReader}, {@link RoutingReader}, {@link QosReader},
 * {@link NicsReader}, {@link FlowsReader}, {@link BackgroundReader}, {@link CollectivesReader}, {@link EventsReader},
 * {@link ProbesReader}, {@link CaptureReader}, {@link ClaimsReader}, {@link VariantsReader}); this
 * one reads the top level, runs them in order for each variant, and checks what spans sections
 * (the hosts' kinds against the flows and the background load).
 */
public final class LabReader {
    /** The top-level keys. */
    static final List<String> TOP = List.of("name", "description", "duration", "seed", "modes", "topology", "qos",
        "nics", "flows", "background", "events", "probes", "capture", "expect", "variants", "sweep", RoutingReader.KEY,
        "lldp", CollectivesReader.KEY,
        Seeds.KEY);
    /** A lab's and a flow's name. */
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

    private final String file;
    private final LabSources sources;
    private final Problems problems = new Problems();
    private final SizeFiles sizeFiles;
    /** Not mistakes: what the file's switch configurations carry that rocelab does not model. */
    private final Problems notes = new Problems();

    private LabReader(String file, LabSources sources) {
        this.file = file;
        this.sources = sources;
        this.sizeFiles = new SizeFiles(sources);
    }

    /**
     * @param file    the name mistakes are reported under (the path as the user gave it)
     * @param text    the YAML
     * @param sources where the file's companions are
     * @throws LabFileException with every mistake
     */
    public static LabFile read(String file, String text, LabSources sources) throws LabFileException {
        LabReader r = new LabReader(file, sources);
        LabFile lab = r.read(text);
        if (!r.problems.isEmpty() || lab == null) {
            throw new LabFileException(r.problems.lines());
        }
        return lab;
    }

    private LabFile read(String text) {
        YNode root = YamlSource.read(file, text, problems);
        if (root == null) {
            return null;
        }
        Section top = Section.of(root, "", problems, TOP.toArray(String[]::new));
        if (top == null) {
            return null;
        }
        String name = top.text("name");
        if (name == null) {
            top.missing("name", "the scenario's name, e.g. pfc-basics");
        } else if (!NAME.matcher(name).matches()) {
            top.mistake("name", "lower-case letters, digits and '-' only: '" + name + "'");
        }
        String description = top.string("description", "");
        Set<Mode> modes = modes(top);
        if (!top.has("duration")) {
            top.missing("duration", "how long the run lasts, e.g. 2ms");
        }
        if (!top.has("topology")) {
            top.missing("topology", "a leaf-spine, a fat-tree, or hosts/switches/links");
        }
        Map<String, YNode> variants = VariantsReader.read(top);
        List<RunSpec> runs = new ArrayList<>();
        for (Map.Entry<String, YNode> v : variants.entrySet()) {
            YNode merged = v.getValue() == null ? root : MergePatch.apply(root, v.getValue());
            RunSpec run = run(v.getKey(), merged, modes);
            if (run != null) {
                runs.add(run);
            }
        }
        List<ExpectSpec> expect = ClaimsReader.read(top);
        List<Long> seeds = Seeds.read(top, variants);
        if (!problems.isEmpty()) {
            return null;
        }
        return new LabFile(name, description, modes, runs, expect, notes.lines(), seeds);
    }

    private Set<Mode> modes(Section top) {
        if (!top.has("modes")) {
            return EnumSet.copyOf(Mode.defaults());
        }
        Set<Mode> modes = EnumSet.noneOf(Mode.class);
        for (String m : top.strings("modes")) {
            Mode mode = Mode.of(m);
            if (mode == null) {
                top.mistake("modes", "no mode '" + m + "' (modes are virtual, live and netns)");
            } else {
                modes.add(mode);
            }
        }
        if (modes.isEmpty()) {
            top.mistake("modes", "name at least one mode: virtual, live, netns");
            return EnumSet.of(Mode.VIRTUAL);
        }
        return modes;
    }

    private RunSpec run(String variant, YNode doc, Set<Mode> modes) {
        // a mistake of the base shows once: Problems keeps each line once
        Section top = Section.of(doc, "", problems, TOP.toArray(String[]::new));
        long duration = top.nanos("duration", 0);
        if (top.has("duration") && duration <= 0) {
            top.mistake("duration", "must be more than 0");
        }
        long seed = top.integer("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        QosReader.Qos qos = QosReader.read(top);
        NicSpec nics = NicsReader.read(top);
        NicsReader.agreeWithSwitches(top, nics, qos.profile());
        Map<String, Loc> linux = new LinkedHashMap<>();
        Map<String, Loc> vms = new LinkedHashMap<>();
        Problems netnsLimits = new Problems();
        io.rocelab.topology.route.Routing routing = RoutingReader.read(top);
        Topology topology = top.has("topology") ? TopologyReader.read(top.get("topology"), problems, sources,
            qos.profile(), nics, linux, vms, netnsLimits, notes, routing) : null;
        if (modes.contains(Mode.NETNS)) {
            problems.addAll(netnsLimits);
        }
        boolean netnsOnly = modes.equals(EnumSet.of(Mode.NETNS));
        if (!netnsOnly) {
            for (Map.Entry<String, Loc> h : linux.entrySet()) {
                problems.add(h.getValue(), "topology.hosts", "host '" + h.getKey() + "' is kind linux, a plain network "
                    + "namespace: the lab runs only in netns mode then (modes: [netns])");
            }
            for (Map.Entry<String, Loc> h : vms.entrySet()) {
                problems.add(h.getValue(), "topology.hosts", "host '" + h.getKey() + "' is kind rxe-vm, a qemu VM on "
                    + "a switch port: the lab runs only in netns mode then (modes: [netns])");
            }
        }
        List<LabFlow> flows = FlowsReader.read(top, topology, duration, linux.keySet(), vms.keySet(), netnsOnly,
            sizeFiles);
        List<BackgroundSpec> background = BackgroundReader.read(top, topology, duration, sizeFiles);
        for (BackgroundSpec b : background) {
            for (String h : b.hosts()) {
                if (linux.containsKey(h) || vms.containsKey(h)) {
                    problems.add(b.loc(), b.path() + ".hosts", "host '" + h + "' is kind "
                        + (linux.containsKey(h) ? "linux" : "rxe-vm") + ": background load runs between nic hosts "
                        + "(name them in hosts)");
                    break;
                }
            }
        }
        Set<String> vmServers = new LinkedHashSet<>();
        for (LabFlow f : flows) {
            if (vms.containsKey(f.source()) && !vms.containsKey(f.destination()) && !vmServers.add(f.destination())) {
                problems.add(f.loc(), f.path() + ".to", "host '" + f.destination() + "' already serves a flow from an "
                    + "rxe-vm host: its NIC runs one perftest server");
            }
        }
        for (LabFlow f : flows) {
            boolean fromVm = vms.containsKey(f.source());
            for (String h : List.of(f.source(), f.destination())) {
                if (vmServers.contains(h) && !fromVm) {
                    problems.add(f.loc(), f.path(), "host '" + h + "' serves a flow from an rxe-vm host: its NIC runs "
                        + "perftest's server for it and takes no other flow");
                }
            }
        }
        for (BackgroundSpec b : background) {
            for (String h : b.hosts()) {
                if (vmServers.contains(h)) {
                    problems.add(b.loc(), b.path() + ".hosts", "host '" + h + "' serves a flow from an rxe-vm host: "
                        + "its NIC runs perftest's server for it and takes no background load");
                    break;
                }
            }
        }
        Set<String> notNics = new LinkedHashSet<>(linux.keySet());
        notNics.addAll(vms.keySet());
        List<CollectiveSpec> collectives = CollectivesReader.read(top, topology, duration, notNics);
        List<LabEvent> events = EventsReader.read(top, topology, flows, duration, modes);
        ProbeSpec probes = ProbesReader.read(top, topology, duration);
        CaptureSpec capture = CaptureReader.read(top, topology, modes);
        if (topology == null) {
            return null;
        }
        return new RunSpec(variant, duration, seed, modes, topology, qos.spec(), nics, flows, background, events, probes,
            capture, linux.keySet(), vms.keySet(), top.bool("lldp", false), collectives);
    }
}
