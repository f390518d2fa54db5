package io.rocelab.topology.generate;

import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.model.TopologyException;
import io.rocelab.topology.qos.QosProfile;
import io.rocelab.topology.route.EcmpRoutes;
import io.rocelab.topology.route.Routing;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A two-tier leaf-spine (folded Clos) fabric: every leaf cabled to every spine, hosts on the leaves.
 *
 * <p>Names and addresses: leaves {@code leaf0..}, spines {@code spine0..}, hosts {@code h0..} numbered
 * leaf by leaf (h0 and h1 on leaf0 with two hosts a leaf). Host {@code j} of leaf {@code i} is
 * 10.0.i.(j+1) in leaf i's 10.0.i.0/24 (and fd00:0:i::(j+1) with IPv6). A leaf's ports are its hosts'
 * first ({@code Ethernet0, Ethernet4, ...}), then one to each spine; spine port {@code i} goes to leaf i.
 * Routes: ECMP over the spines ({@link EcmpRoutes}).
 *
 * <p>Oversubscription is the ratio of a leaf's host-facing to its spine-facing bandwidth
 * ({@code hostsPerLeaf x host speed : spines x spine speed}); give it, or the spine links' speed.
 *
 * @param topology              the fabric
 * @param leaves                number of leaves
 * @param spines                number of spines
 * @param hostsPerLeaf          hosts on each leaf
 * @param hostLinkBitsPerSecond speed of the host links
 * @param spineLinkBitsPerSecond speed of the leaf-spine links
 */
public record LeafSpine(Topology topology, int leaves, int spines, int hostsPerLeaf, long hostLinkBitsPerSecond,
                        long spineLinkBitsPerSecond) {

    /** @return the leaf's host-facing bandwidth over its spine-facing bandwidth */
    public double oversubscription() {
        return (double) hostsPerLeaf * hostLinkBitsPerSecond / ((double) spines * spineLinkBitsPerSecond);
    }

    /** @return a builder of 2 leaves, 2 spines, 2 hosts a leaf, 100 Gb/s, 5 m cables, QoS {@code lossless} */
    public static Builder builder() {
        return new Builder();
    }

    public static String leaf(int i) {
        return "leaf" + i;
    }

    public static String spine(int j) {
        return "spine" + j;
    }

    /** @return the name of host {@code j} of leaf {@code i} */
    public String host(int i, int j) {
        return "h" + (i * hostsPerLeaf + j);
    }

    /** @return leaf {@code i}'s port to spine {@code j} */
    public String uplink(int j) {
        return Plan.port(hostsPerLeaf + j);
    }

    /** The size, speeds, cables and QoS of a leaf-spine fabric. */
    public static final class Builder {
        private int leaves = 2;
        private int spines = 2;
        private int hostsPerLeaf = 2;
        private long hostGbps = 100;
        private long spineMbps;
        private double oversubscription;
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

        public Builder leaves(int n) {
            leaves = n;
            return this;
        }

        public Builder spines(int n) {
            spines = n;
            return this;
        }

        public Builder hostsPerLeaf(int n) {
            hostsPerLeaf = n;
            return this;
        }

        public Builder hostLinkGbps(long gbps) {
            hostGbps = gbps;
            return this;
        }

        /** The leaf-spine links' speed; by default what {@link #oversubscription(double)} asks, else the hosts'. */
        public Builder spineLinkGbps(long gbps) {
            spineMbps = gbps * 1000;
            return this;
        }

        /** Host-facing to spine-facing bandwidth of a leaf, e.g. 3 for 3:1; sets the spine links' speed. */
        public Builder oversubscription(double ratio) {
            oversubscription = ratio;
            return this;
        }

        public Builder cableMeters(int meters) {
            cableMeters = meters;
            return this;
        }

        /** The QoS profile of every switch, by name ({@code lossless}, {@code lossy}). */
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

        /** Gives every host an IPv6 address too (and the switches IPv6 routes). */
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
        public LeafSpine build() {
            List<String> problems = new ArrayList<>();
            check(problems, "leaves", leaves, 1, 256);
            check(problems, "spines", spines, 1, 64);
            check(problems, "hosts per leaf", hostsPerLeaf, 1, 253);
            check(problems, "host link speed (Gb/s)", hostGbps, 1, 1600);
            check(problems, "cable length (m)", cableMeters, 0, 100_000);
            long hostMbps = hostGbps * 1000;
            long uplinkMbps = spineMbps;
            if (oversubscription < 0 || Double.isNaN(oversubscription)) {
                problems.add("leaf-spine: oversubscription must be > 0, not " + oversubscription);
            } else if (oversubscription > 0 && problems.isEmpty()) {
                double wanted = hostsPerLeaf * hostMbps / (spines * oversubscription);
                if (uplinkMbps == 0) {
                    uplinkMbps = Math.round(wanted);
                    if (Math.abs(wanted - uplinkMbps) > 1e-6 || uplinkMbps < 1) {
                        problems.add("leaf-spine: oversubscription " + oversubscription + " needs spine links of "
                            + wanted + " Mb/s, not a whole number of Mb/s");
                    }
                } else if (Math.abs(wanted - uplinkMbps) > 1e-6) {
                    problems.add("leaf-spine: oversubscription " + oversubscription + " with " + hostsPerLeaf + " x "
                        + hostGbps + " Gb/s hosts and " + spines + " spines needs " + wanted + " Mb/s spine links, not "
                        + uplinkMbps);
                }
            }
            if (uplinkMbps == 0) {
                uplinkMbps = hostMbps;
            }
            if (!problems.isEmpty()) {
                throw new TopologyException(problems);
            }
            Topology.Builder t = Topology.builder().routes(routing.filler());
            if (qosProfile != null) {
                t.qos(qosProfile);
            } else {
                t.qos(qos);
            }
            LeafSpine names = new LeafSpine(null, leaves, spines, hostsPerLeaf, hostMbps * 1_000_000L,
                uplinkMbps * 1_000_000L);
            long[] leafPorts = new long[hostsPerLeaf + spines];
            for (int p = 0; p < leafPorts.length; p++) {
                leafPorts[p] = p < hostsPerLeaf ? hostMbps : uplinkMbps;
            }
            long[] spinePorts = new long[leaves];
            java.util.Arrays.fill(spinePorts, uplinkMbps);
            for (int i = 0; i < leaves; i++) {
                SwitchConfigBuilder leaf = Plan.switchTables(leaf(i), i, leafPorts);
                t.switchNode(leaf(i), leaf);
                for (int j = 0; j < hostsPerLeaf; j++) {
                    String v6 = ipv6 ? "fd00:0:" + Integer.toHexString(i) + "::" + Integer.toHexString(j + 1) : null;
                    Host h = Plan.host(names.host(i, j), Plan.ipv4(0, i, j + 1), v6, activeMtu, dcqcn, pauseResponse);
                    t.host(h).link(Plan.cable(h.name(), leaf(i) + ":" + Plan.port(j), cableMeters));
                }
            }
            for (int j = 0; j < spines; j++) {
                t.switchNode(spine(j), Plan.switchTables(spine(j), leaves + j, spinePorts));
                for (int i = 0; i < leaves; i++) {
                    t.link(Plan.cable(leaf(i) + ":" + names.uplink(j), spine(j) + ":" + Plan.port(i), cableMeters));
                }
            }
            return new LeafSpine(t.build(), leaves, spines, hostsPerLeaf, names.hostLinkBitsPerSecond,
                names.spineLinkBitsPerSecond);
        }

        private static void check(List<String> problems, String what, long value, long min, long max) {
            if (value < min || value > max) {
                problems.add("leaf-spine: " + what + " must be " + min + ".." + max + ", not " + value);
            }
        }
    }
}
