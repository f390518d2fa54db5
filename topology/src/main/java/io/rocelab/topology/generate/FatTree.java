package io.rocelab.topology.generate;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.model.TopologyException;
import io.rocelab.topology.qos.QosProfile;
import io.rocelab.topology.route.EcmpRoutes;
import io.rocelab.topology.route.Routing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A k-ary fat tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 edge and k/2 aggregation switches,
 * (k/2)^2 core switches, k^3/4 hosts, every switch with k ports, full bisection bandwidth.
 *
 * <p>Names and addresses: {@code pod<p>-edge<e>}, {@code pod<p>-agg<a>}, {@code core<c>}; hosts
 * {@code h0..} numbered pod by pod, edge by edge. Host {@code j} of edge {@code e} in pod {@code p}
 * is 10.p.e.(j+2), as in the paper (and fd00:p:e::(j+2) with IPv6). An edge switch's ports are its
 * hosts' first, then one to each aggregation switch of its pod; an aggregation switch's are its
 * pod's edges', then its k/2 cores'; core {@code c} is cabled to aggregation switch c / (k/2) of
 * every pod, its port {@code p} to pod p. Routes: ECMP up, one path down ({@link EcmpRoutes}).
 *
 * @param topology the fabric
 * @param k        the switches' port count
 */
public record FatTree(Topology topology, int k) {

    /** @return a builder for a fat tree of k = 4, 100 Gb/s links, 5 m cables, QoS {@code lossless} */
    public static Builder builder() {
        return new Builder();
    }

    public static String edge(int pod, int e) {
        return "pod" + pod + "-edge" + e;
    }

    public static String agg(int pod, int a) {
        return "pod" + pod + "-agg" + a;
    }

    public static String core(int c) {
        return "core" + c;
    }

    /** @return the name of host {@code j} of edge {@code e} in pod {@code pod} */
    public String host(int pod, int e, int j) {
        int half = k / 2;
        return "h" + ((pod * half + e) * half + j);
    }

    /** The size, speed, cables and QoS of a fat tree. */
    public static final class Builder {
        private int k = 4;
        private long linkGbps = 100;
        private long propagationDelayNanos = -1;
        private int cableMeters = 5;
        private String qos = "lossless";
        private QosProfile qosProfile;
        private boolean ipv6;
        private int activeMtu = 4096;
        private DcqcnParams dcqcn;
        private PauseResponse pauseResponse = PauseResponse.IEEE;
        private Routing routing = Routing.STATIC;

        private Builder() {
        }

        /**
         * DCQCN on every host's NIC with {@code params} ({@code DcqcnParams.defaults()}: ConnectX's),
         * null for none (the default).
         */
        public Builder dcqcn(DcqcnParams params) {
            dcqcn = params;
            return this;
        }

        /**
         * How long every host's NIC takes to act on a received PFC XOFF ({@link PauseResponse#IEEE},
         * the standard's bound for its speed, by default).
         */
        public Builder pauseResponse(PauseResponse response) {
            pauseResponse = java.util.Objects.requireNonNull(response, "response");
            return this;
        }

        /** Ports per switch, even: k pods, (k/2)^2 cores, k^3/4 hosts. */
        public Builder k(int ports) {
            k = ports;
            return this;
        }

        public Builder linkGbps(long gbps) {
            linkGbps = gbps;
            return this;
        }

        public Builder cableMeters(int meters) {
            cableMeters = meters;
            propagationDelayNanos = -1;
            return this;
        }

        /** Every link's propagation delay instead of a cable length (e.g. 1000 for 1 µs links). */
        public Builder propagationDelayNanos(long nanos) {
            propagationDelayNanos = nanos;
            return this;
        }

        public Builder qos(String profile) {
            qos = profile;
            qosProfile = null;
            return this;
        }

        /** A QoS profile of the scenario's own (a named one tuned with its {@code with...} methods). */
        public Builder qos(QosProfile profile) {
            qosProfile = Objects.requireNonNull(profile, "profile");
            return this;
        }

        public Builder ipv6(boolean on) {
            ipv6 = on;
            return this;
        }

        /**
         * How the switches route: {@link Routing#STATIC} (the default, ECMP static routes over every
         * shortest path, {@link EcmpRoutes}) or eBGP ({@link Routing#bgp()}).
         */
        public Builder routing(Routing r) {
            routing = java.util.Objects.requireNonNull(r, "routing");
            return this;
        }

        public Builder activeMtu(int bytes) {
            activeMtu = bytes;
            return this;
        }

        /**
         * @throws TopologyException with one line per bad parameter, or whatever the topology's check finds
         */
        public FatTree build() {
            List<String> problems = new ArrayList<>();
            if (k < 2 || k > 64 || k % 2 != 0) {
                problems.add("fat tree: k must be even and 2..64, not " + k);
            }
            if (linkGbps < 1 || linkGbps > 1600) {
                problems.add("fat tree: link speed (Gb/s) must be 1..1600, not " + linkGbps);
            }
            if (!problems.isEmpty()) {
                throw new TopologyException(problems);
            }
            FatTree names = new FatTree(null, k);
            int half = k / 2;
            long[] ports = new long[k];
            Arrays.fill(ports, linkGbps * 1000);
            Topology.Builder t = Topology.builder().routes(routing.filler());
            if (qosProfile != null) {
                t.qos(qosProfile);
            } else {
                t.qos(qos);
            }
            int index = 0;
            for (int p = 0; p < k; p++) {
                for (int e = 0; e < half; e++) {
                    t.switchNode(edge(p, e), Plan.switchTables(edge(p, e), index++, ports));
                    for (int j = 0; j < half; j++) {
                        String v6 = ipv6 ? "fd00:" + Integer.toHexString(p) + ":" + Integer.toHexString(e) + "::"
                            + Integer.toHexString(j + 2) : null;
                        Host h = Plan.host(names.host(p, e, j), Plan.ipv4(p, e, j + 2), v6, activeMtu, dcqcn,
                            pauseResponse);
                        t.host(h).link(link(h.name(), edge(p, e) + ":" + Plan.port(j)));
                    }
                }
                for (int a = 0; a < half; a++) {
                    t.switchNode(agg(p, a), Plan.switchTables(agg(p, a), index++, ports));
                    for (int e = 0; e < half; e++) {
                        t.link(link(edge(p, e) + ":" + Plan.port(half + a), agg(p, a) + ":" + Plan.port(e)));
                    }
                }
            }
            for (int c = 0; c < half * half; c++) {
                t.switchNode(core(c), Plan.switchTables(core(c), index++, ports));
                int a = c / half;
                for (int p = 0; p < k; p++) {
                    t.link(link(agg(p, a) + ":" + Plan.port(half + c % half), core(c) + ":" + Plan.port(p)));
                }
            }
            return new FatTree(t.build(), k);
        }

        private Link link(String a, String b) {
            return propagationDelayNanos >= 0
                ? Link.between(a, b).propagationDelayNanos(propagationDelayNanos).build()
                : Plan.cable(a, b, cableMeters);
        }
    }
}
