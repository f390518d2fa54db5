package io.rocelab.sw.acl;

import io.rocelab.sw.config.AclConfig;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.pipeline.DscpRemarkStage;
import io.rocelab.sw.pipeline.PacketContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The ACL stage: SONiC's {@code ACL_TABLE}s bound to a port, looked up for every packet the port
 * receives (stage ingress: after the classifier, before forwarding) or sends (stage egress: once
 * the egress port is known, before the buffer admits it).
 *
 * <p>As SAI's ACL table groups do, every table bound to the port is looked up (in parallel, so in
 * any order); in each, the matching rule of the highest {@code PRIORITY} wins (a tie goes to the
 * rule given first) and its actions apply; a packet no rule of a table matches goes on as it was.
 * Actions: {@code PACKET_ACTION DROP} (the packet is dropped, counted as {@code ACL} on its ingress
 * port), {@code SET_DSCP} (the IP DSCP, ECN kept), {@code SET_TC} (the traffic class, and with it
 * the priority group, queue and PFC of the ingress port's maps), and a mirror action: a copy
 * leaves by the SPAN session's {@code dst_port}, in its queue of TC 0, lossy (dropped if that
 * port's buffer is full). Each rule counts the packets and bytes it won
 * ({@code SAI_ACL_COUNTER_ATTR_PACKETS}/{@code BYTES}).
 *
 * <p>Not modelled: matching on BTH or other RoCE fields (SONiC's ACLs cannot either), ERSPAN,
 * redirect, policers, tables of other types. Owner thread only.
 */
public final class AclStage {
    /** Sends a mirrored copy of a packet out of a port. */
    @FunctionalInterface
    public interface Mirror {
        /**
         * @param ctx  the packet (its frame stays the caller's)
         * @param port the session's {@code dst_port}
         */
        void mirror(PacketContext ctx, int port);
    }

    private final PortConfig[] ports;
    private final AclConfig.Rule[] rules;
    /** Per rule: the port its mirror copies leave by, or -1. */
    private final int[] mirrorPort;
    private final long[] packets;
    private final long[] bytes;
    /** The counts when they were last cleared ({@code sonic-clear acl}, {@code aclshow -c}). */
    private final long[] clearedPackets;
    private final long[] clearedBytes;
    /** Per port, per table bound to it: rule indices, highest priority first. */
    private final int[][][] ingress;
    private final int[][][] egress;
    private final Mirror mirror;

    /**
     * @param config the switch's configuration (its {@link SwitchConfig#acl()})
     * @param mirror where mirrored copies go
     */
    public AclStage(SwitchConfig config, Mirror mirror) {
        this.ports = config.ports().toArray(new PortConfig[0]);
        this.mirror = mirror;
        AclConfig acl = config.acl();
        List<AclConfig.Rule> all = new ArrayList<>(acl.rules());
        this.rules = all.toArray(new AclConfig.Rule[0]);
        this.packets = new long[rules.length];
        this.bytes = new long[rules.length];
        this.clearedPackets = new long[rules.length];
        this.clearedBytes = new long[rules.length];
        this.mirrorPort = new int[rules.length];
        for (int i = 0; i < rules.length; i++) {
            AclConfig.MirrorSession s = rules[i].mirror() == null ? null : acl.sessions().get(rules[i].mirror());
            mirrorPort[i] = s != null && s.span() ? config.portIndex(s.dstPort()) : -1;
        }
        int n = ports.length;
        List<List<int[]>> in = new ArrayList<>();
        List<List<int[]>> out = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            in.add(new ArrayList<>());
            out.add(new ArrayList<>());
        }
        for (AclConfig.Table t : acl.tables()) {
            if (!t.modelled()) {
                continue;
            }
            List<Integer> idx = new ArrayList<>();
            for (int i = 0; i < rules.length; i++) {
                if (rules[i].table().equals(t.name())) {
                    idx.add(i);
                }
            }
            // highest PRIORITY first; a stable sort keeps file order among equals
            idx.sort(Comparator.comparingInt((Integer i) -> -rules[i].priority()));
            int[] order = idx.stream().mapToInt(Integer::intValue).toArray();
            for (String bound : t.ports()) {
                for (int p : members(config, bound)) {
                    (t.egress() ? out : in).get(p).add(order);
                }
            }
        }
        this.ingress = new int[n][][];
        this.egress = new int[n][][];
        for (int p = 0; p < n; p++) {
            ingress[p] = in.get(p).toArray(new int[0][]);
            egress[p] = out.get(p).toArray(new int[0][]);
        }
    }

    /** A port, or a port channel's members (SONiC binds a table to a LAG's members). */
    private static List<Integer> members(SwitchConfig config, String name) {
        int p = config.portIndex(name);
        if (p >= 0) {
            return List.of(p);
        }
        List<Integer> out = new ArrayList<>();
        config.portChannels().stream().filter(c -> c.name().equals(name))
            .forEach(c -> c.members().forEach(m -> out.add(config.portIndex(m))));
        out.removeIf(i -> i < 0);
        return out;
    }

    /** @return true if any table is bound to any port */
    public boolean active() {
        for (int p = 0; p < ports.length; p++) {
            if (ingress[p].length > 0 || egress[p].length > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The ingress tables of {@link PacketContext#ingressPort}.
     *
     * @return true if a rule drops the packet
     */
    public boolean ingress(PacketContext ctx) {
        int[][] tables = ingress[ctx.ingressPort];
        return tables.length != 0 && apply(tables, ctx);
    }

    /**
     * The egress tables of {@link PacketContext#egressPort}.
     *
     * @return true if a rule drops the packet
     */
    public boolean egress(PacketContext ctx) {
        int[][] tables = egress[ctx.egressPort];
        return tables.length != 0 && apply(tables, ctx);
    }

    private boolean apply(int[][] tables, PacketContext ctx) {
        boolean drop = false;
        for (int[] table : tables) {
            for (int i : table) {
                if (AclMatcher.matches(rules[i].match(), ctx)) {
                    packets[i]++;
                    bytes[i] += ctx.length;
                    drop |= act(i, ctx);
                    break;
                }
            }
        }
        return drop;
    }

    private boolean act(int i, PacketContext ctx) {
        AclConfig.Rule r = rules[i];
        if (mirrorPort[i] >= 0) {
            mirror.mirror(ctx, mirrorPort[i]);
        }
        if (r.drop()) {
            return true;
        }
        if (r.setDscp() >= 0) {
            DscpRemarkStage.setDscp(ctx, r.setDscp());
        }
        if (r.setTc() >= 0) {
            PortConfig p = ports[ctx.ingressPort];
            int tc = r.setTc();
            ctx.tc = tc;
            ctx.priorityGroup = p.tcToPg()[tc];
            ctx.queue = p.tcToQueue()[tc];
            ctx.lossless = p.pfcEnabled(tc);
        }
        return false;
    }

    /**
     * The rules' counters since they were last cleared, as {@code aclshow -a} lists them: one entry
     * per rule, in file order. Call on the owner thread.
     */
    public List<RuleCounter> counters() {
        List<RuleCounter> out = new ArrayList<>();
        for (int i = 0; i < rules.length; i++) {
            out.add(new RuleCounter(rules[i].table(), rules[i].name(), rules[i].priority(),
                packets[i] - clearedPackets[i], bytes[i] - clearedBytes[i]));
        }
        return out;
    }

    /** {@code sonic-clear acl}: the counters count from zero again. Call on the owner thread. */
    public void clearCounters() {
        System.arraycopy(packets, 0, clearedPackets, 0, packets.length);
        System.arraycopy(bytes, 0, clearedBytes, 0, bytes.length);
    }

    /**
     * One rule's counters.
     *
     * @param table    the table's name
     * @param rule     the rule's name
     * @param priority its {@code PRIORITY}
     * @param packets  packets it matched (and won)
     * @param bytes    their bytes
     */
    public record RuleCounter(String table, String rule, int priority, long packets, long bytes) {
    }
}
