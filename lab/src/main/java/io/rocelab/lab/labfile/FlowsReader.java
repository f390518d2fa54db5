package io.rocelab.lab.labfile;

import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.workload.AltPath;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.InvalidFlowException;
import io.rocelab.topology.workload.SizeDistribution;
import io.rocelab.topology.workload.Verb;
import io.rocelab.topology.workload.Workload;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code flows:}: each entry goes from one or more hosts (a name, a pattern or a list) to one host,
 * one flow per source, built as what runs it takes ({@link LabFlow}): the workload engine's
 * {@link Flow} between nic hosts (or perftest's, from an {@code rxe-vm} host), iperf3's between
 * linux hosts ({@code verb: tcp}). What the file cannot mean is a mistake at its key; what the
 * engine's own check of a flow finds that the file's checks did not is one at the entry.
 */
final class FlowsReader {
    /** The verbs of an RDMA flow, as a file writes them. */
    static final List<String> VERBS = List.of("write", "read", "send", "ud-send");
    /** The verb of a flow between linux hosts: a real TCP flow (iperf3), netns mode only. */
    static final String TCP = "tcp";
    /** What a tcp flow may say: iperf3 runs it, and knows nothing of messages, windows or QPs. */
    private static final List<String> TCP_KEYS = List.of("name", "from", "to", "verb", "duration", "start", "stop",
        "streams", "rate");
    /** What a flow from an rxe-vm host may say: perftest in the VM runs it ({@code -s}, {@code -n}). */
    private static final List<String> VM_KEYS = List.of("name", "from", "to", "verb", "size", "messages");
    /** The verbs perftest runs from a VM (rdma_cm, RC). */
    static final List<String> VM_VERBS = List.of("write", "read", "send");
    /** A VM flow's messages when the file gives none (perftest's 5000 would take minutes under TCG). */
    static final long VM_MESSAGES = 100;

    /**
     * A flow of an entry with a mistake: kept while the file is read, so that the rest of it (the
     * events that start flows, the hosts that serve VMs) is checked against it; a file with one
     * never becomes a {@link RunSpec}.
     */
    record Unread(String name, String group, String source, String destination, Loc loc, String path)
        implements LabFlow {
    }

    private FlowsReader() {
    }

    /**
     * @param duration  the run's duration (a flow starts before it)
     * @param linux     the hosts of kind linux
     * @param vms       the hosts of kind rxe-vm
     * @param netnsOnly whether the lab runs in netns mode only (tcp flows need it)
     * @param sizeFiles where the size CDFs are read
     * @return the flows in file order, one per source of each entry (mistakes reported)
     */
    static List<LabFlow> read(Section top, Topology topology, long duration, Set<String> linux, Set<String> vms,
                              boolean netnsOnly, SizeFiles sizeFiles) {
        Problems problems = top.problems();
        List<LabFlow> out = new ArrayList<>();
        List<YNode> items = top.list("flows");
        Reachability reach = topology == null ? null : new Reachability(topology);
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String path = "flows[" + i + "]";
            YNode item = items.get(i);
            int mistakes = problems.reported();
            boolean tcp = item instanceof YNode.YMap m && m.get("verb") instanceof YNode.YScalar v
                && TCP.equals(v.text());
            boolean fromVm = item instanceof YNode.YMap m && m.get("from") instanceof YNode.YScalar v
                && vms.contains(v.text());
            Section f = tcp ? Section.of(item, path, problems, TCP_KEYS.toArray(String[]::new))
                : fromVm ? Section.of(item, path, problems, VM_KEYS.toArray(String[]::new))
                : Section.of(item, path, problems, "name", "from", "to", "verb", "size", "size-cdf",
                "messages", "duration", "qps", "window", "start", "stop", "rate", "dscp", "ack-timeout", "retry",
                "rnr-retry", "reconnect", "alt-path", "verify", "roce");
            if (f == null) {
                continue;
            }
            if (tcp && !netnsOnly) {
                f.mistake("verb", "verb tcp runs iperf3 between linux hosts: the lab runs only in netns mode then "
                    + "(modes: [netns])");
            }
            if (!f.has("from") || !f.has("to")) {
                f.missing(f.has("from") ? "to" : "from", "a flow goes from one or more hosts to one host");
                continue;
            }
            String verb = f.string("verb", "write").toLowerCase(Locale.ROOT);
            if (!VERBS.contains(verb) && !tcp) {
                f.mistake("verb", "no verb '" + verb + "' (known: " + String.join(", ", VERBS) + ", and tcp between "
                    + "linux hosts)");
            }
            long size = f.bytes("size", 65_536);
            String cdf = f.text("size-cdf");
            if (f.has("size") && cdf != null) {
                f.mistake("size-cdf", "give size or size-cdf, not both");
            }
            SizeDistribution cdfSizes = null;
            if (cdf != null) {
                cdfSizes = sizeFiles.cdf(f, "size-cdf", cdf);
                size = 0;
            } else if (size < 1) {
                f.mistake("size", "a message has at least 1 byte");
            }
            long messages = fromVm ? f.integer("messages", VM_MESSAGES, 1, 1_000_000)
                : f.integer("messages", 0, 0, Long.MAX_VALUE);
            if (fromVm && !VM_VERBS.contains(verb)) {
                f.mistake("verb", "a flow from an rxe-vm host is perftest in the VM over rdma_cm: write, read or send, "
                    + "not '" + verb + "'");
            }
            long flowDuration = f.nanos("duration", 0);
            if (tcp && flowDuration % 1_000_000_000L != 0) {
                f.mistake("duration", "a tcp flow lasts whole seconds (iperf3 -t): " + f.text("duration"));
            }
            int qps = tcp ? (int) f.integer("streams", 1, 1, 128) : (int) f.integer("qps", 1, 1, Flow.MAX_QPS);
            int window = (int) f.integer("window", 8, 1, Flow.MAX_WINDOW);
            long start = 0;
            if ("event".equals(f.text("start"))) {
                start = Long.MAX_VALUE;
            } else {
                start = f.time("start", 0);
            }
            long stop = f.has("stop") ? f.time("stop", Long.MAX_VALUE) : Long.MAX_VALUE;
            if (stop != Long.MAX_VALUE && start != Long.MAX_VALUE && stop <= start) {
                f.mistake("stop", "stops at " + Quantity.formatNanos(stop) + ", not after its start "
                    + Quantity.formatNanos(start));
            }
            if (start != Long.MAX_VALUE && duration > 0 && start >= duration) {
                f.mistake("start", "starts at " + Quantity.formatNanos(start) + ", when the run is over (duration "
                    + Quantity.formatNanos(duration) + ")");
            }
            long rate = f.bitsPerSecond("rate", 0);
            int dscp = (int) f.integer("dscp", -1, 0, 63);
            int ackTimeout = (int) f.integer("ack-timeout", 14, 0, 31);
            int retry = (int) f.integer("retry", 7, 0, 7);
            int rnrRetry = (int) f.integer("rnr-retry", 7, 0, 7);
            long reconnect = f.nanos("reconnect", 0);
            if (f.has("reconnect") && reconnect <= 0) {
                f.mistake("reconnect", "the wait before reconnecting must be longer than 0, e.g. reconnect: 50ms");
            } else if (reconnect > 0 && "ud-send".equals(verb)) {
                f.mistake("reconnect", "reconnecting through rdma_cm is for RC flows, not ud-send");
            } else if (reconnect > 0 && ackTimeout == 0) {
                f.mistake("ack-timeout", "a reconnecting flow sets its ACK timeout through rdma_cm: 1..31, not 0");
            }
            Section alt = f.has("alt-path") ? f.section("alt-path", "port", "remote-port", "ack-timeout") : null;
            int altPort = alt == null ? 0 : (int) alt.integer("port", 0, 1, 2);
            int altRemotePort = alt == null ? 0 : (int) alt.integer("remote-port", 0, 1, 2);
            int altTimeout = alt == null ? -1 : (int) alt.integer("ack-timeout", -1, 0, 31);
            if (alt != null && "ud-send".equals(verb)) {
                f.mistake("alt-path", "an alternate path is for RC flows (IBA 17.2.8), not ud-send");
                alt = null;
            } else if (alt != null && reconnect > 0) {
                f.mistake("alt-path", "a flow with reconnect connects through rdma_cm, which loads no alternate path "
                    + "(no LAP): give one or the other");
                alt = null;
            }
            // roce: v1 | v2: the encapsulation, by the GID type its QPs' paths start at (v2 unless given)
            String roce = f.string("roce", "v2").toLowerCase(Locale.ROOT);
            boolean roceV1 = roce.equals("v1");
            if (!roceV1 && !roce.equals("v2")) {
                f.mistake("roce", "roce is v1 (IBA Annex A16, EtherType 0x8915) or v2 (UDP 4791), not '" + roce + "'");
            } else if (roceV1 && reconnect > 0) {
                f.mistake("roce", "a flow with reconnect connects through rdma_cm, which uses RoCEv2 (its default "
                    + "RoCE mode): roce: v1 goes without reconnect");
            } else if (roceV1 && alt != null) {
                f.mistake("roce", "an alternate path is RoCEv2 here: roce: v1 goes without alt-path");
            }
            boolean verify = f.bool("verify", false);
            if (verify && "ud-send".equals(verb)) {
                f.mistake("verify", "UD datagrams may be lost: verify checks write, read and send flows");
            } else if (verify && "send".equals(verb) && reconnect > 0) {
                f.mistake("verify", "a verified send counts the messages each QP receives, which reconnecting QPs "
                    + "restart: not with reconnect");
            } else if (verify && !tcp) {
                long wr = Math.min(Workload.MAX_WR_BYTES, size > 0 ? size : 1);
                long slots = Math.min(Flow.MAX_WINDOW, 2L * window);
                long need = qps * slots * wr;
                if (size > 0 && need > Flow.MAX_VERIFY_BYTES) {
                    f.mistake("verify", "a verified flow holds " + slots + " slots of " + wr + " bytes per QP on each "
                        + "side: " + qps + " QPs take " + (need >> 20) + " MiB, more than "
                        + (Flow.MAX_VERIFY_BYTES >> 20) + " MiB (fewer qps, a smaller window or smaller messages)");
                }
            }
            if (topology == null) {
                continue;
            }
            List<String> sources = TopologyRefs.hosts(f, "from", topology);
            List<String> to = TopologyRefs.hosts(f, "to", topology);
            if (to.size() > 1) {
                f.mistake("to", "a flow has one destination; '" + f.text("to") + "' names " + to.size() + " hosts");
                continue;
            }
            if (sources.isEmpty() || to.isEmpty()) {
                continue;
            }
            String dst = to.get(0);
            String group = f.string("name", null);
            if (group != null && !LabReader.NAME.matcher(group).matches()) {
                f.mistake("name", "a flow's name is lower-case letters, digits and '-': '" + group + "'");
            }
            for (String src : sources) {
                if (src.equals(dst)) {
                    f.mistake("from", "a flow from " + src + " to itself");
                    continue;
                }
                if (!tcp && (vms.contains(src) || vms.contains(dst))) {
                    if (!vms.contains(src) || linux.contains(dst)) {
                        f.mistake(vms.contains(src) ? "to" : "from", vms.contains(src)
                            ? "a flow from an rxe-vm host goes to a nic or an rxe-vm host; '" + dst + "' is kind linux"
                            : "a flow to an rxe-vm host starts in an rxe-vm host (perftest's client in the VM); '"
                                + src + "' is kind " + (linux.contains(src) ? "linux" : "nic"));
                        continue;
                    }
                } else if (tcp ? !(linux.contains(src) && linux.contains(dst))
                    : linux.contains(src) || linux.contains(dst)) {
                    String nic = !linux.contains(src) ? src : dst;
                    String lin = linux.contains(src) ? src : dst;
                    f.mistake(tcp ? "from" : "to", tcp ? "a tcp flow runs between linux hosts; '" + nic + "' is a nic host"
                        : "an RDMA flow (" + verb + ") runs between nic hosts; '" + lin + "' is kind linux (verb: tcp)");
                    continue;
                }
                if (roceV1 && (!topology.host(src).roceV1() || !topology.host(dst).roceV1())) {
                    String plain = !topology.host(src).roceV1() ? src : dst;
                    f.mistake("roce", "roce: v1 needs RoCEv1 GIDs on both NICs; '" + plain + "' has RoCEv2 GIDs only "
                        + "(rxe's table): give it roce-v1: true, or nics: {roce-v1: true}");
                    continue;
                }
                if (!reach.reaches(src, dst)) {
                    f.mistake("to", "no path from " + src + " to " + dst + ": they are unreachable over the fabric's "
                        + "links");
                    continue;
                }
                int[] altPorts = alt == null ? null : altPorts(alt, altPort, altRemotePort, topology.host(src),
                    topology.host(dst));
                if (alt != null && altPorts == null) {
                    continue;
                }
                String name = group == null ? src + "-" + dst : sources.size() == 1 ? group : group + "-" + src;
                if (!names.add(name)) {
                    f.mistake("name", "a second flow called '" + name + "'");
                    continue;
                }
                String g = group == null ? name : group;
                if (problems.reported() > mistakes) {
                    out.add(new Unread(name, g, src, dst, f.map().loc(), path));
                } else if (tcp) {
                    out.add(new LabFlow.Tcp(name, g, src, dst, start, stop, flowDuration, qps, rate, f.map().loc(),
                        path));
                } else {
                    try {
                        Flow flow = Flow.builder(name, src, dst).verb(Verb.parse(verb))
                            .size(cdfSizes != null ? cdfSizes : SizeDistribution.fixed(size)).messages(messages)
                            .durationNanos(flowDuration).qps(qps).window(window).startNanos(start).stopNanos(stop)
                            .rateBitsPerSecond(rate).dscp(dscp).ackTimeout(ackTimeout).retryCount(retry)
                            .rnrRetry(rnrRetry).reconnectAfterNanos(reconnect)
                            .altPath(altPorts != null ? new AltPath(altPorts[0], altPorts[1], altTimeout) : null)
                            .verify(verify).roceV1(roceV1).build();
                        out.add(new LabFlow.Rdma(flow, g, f.map().loc(), path));
                    } catch (InvalidFlowException e) {
                        // what the engine's check of a flow finds that the file's checks above did not
                        for (String p : e.problems()) {
                            problems.add(f.map().loc(), path, p);
                        }
                        out.add(new Unread(name, g, src, dst, f.map().loc(), path));
                    }
                }
            }
        }
        return out;
    }

    /**
     * A flow's alternate path between {@code src} and {@code dst}: its ports ({@code port} of the
     * source, {@code remote-port} of the destination; by default each host's port 2 if it has one),
     * or null after reporting why there is none: a bonded host, a port the host lacks, or the
     * primary path again (port 1 to port 1).
     */
    private static int[] altPorts(Section alt, int port, int remotePort, Host src, Host dst) {
        boolean ok = true;
        for (Host h : List.of(src, dst)) {
            if (h.bonded()) {
                alt.problems().add(alt.map().loc(), alt.path(), h.name() + "'s ports are bonded (" + h.name()
                    + " has one port to verbs, and the bond fails over by itself): no alternate path");
                ok = false;
            }
        }
        if (!ok) {
            return null;
        }
        int p = port > 0 ? port : src.portCount();
        int r = remotePort > 0 ? remotePort : dst.portCount();
        if (p > src.portCount()) {
            alt.mistake("port", src.name() + " has one port: no port " + p + " (ports: 2 on the host gives it eth1)");
            return null;
        }
        if (r > dst.portCount()) {
            alt.mistake("remote-port", dst.name() + " has one port: no port " + r
                + " (ports: 2 on the host gives it eth1)");
            return null;
        }
        if (p == 1 && r == 1) {
            alt.problems().add(alt.map().loc(), alt.path(), "the alternate path is the primary path (" + src.name()
                + "'s port 1 to " + dst.name() + "'s port 1): give a port 2 on either end");
            return null;
        }
        return new int[] {p, r};
    }
}
