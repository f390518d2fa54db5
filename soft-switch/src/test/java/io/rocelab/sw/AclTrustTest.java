package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.codec.header.Pfc;
import io.rocelab.sw.acl.AclStage;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The trust boundary and SONiC's ACLs on the soft switch, configured as a config_db file gives
 * them: egress DSCP remarking by {@code tc_to_dscp_map}, PFC frames for a priority the port does
 * not enable, ACL rules (priority, drop, mirror) and their counters, and configuration mistakes.
 */
class AclTrustTest {

    private static ConfigBuilder three() {
        return Lab.routes(new ConfigBuilder(3, 100), 3);
    }

    /** A tenant port mapping every DSCP to TC 0 and the egress port's tc_to_dscp_map: RoCE's DSCP 26 leaves as 0. */
    @ParameterizedTest(name = "remark {0}")
    @ValueSource(booleans = {true, false})
    void anUntrustedTenantLeavesWithTheLossyDscp(boolean remark) {
        ConfigBuilder b = three();
        ObjectNode root = b.root();
        root.withObject("/DSCP_TO_TC_MAP").putObject("TENANT");
        root.withObject("/PORT_QOS_MAP/Ethernet4").put("dscp_to_tc_map", "TENANT");
        if (remark) {
            ObjectNode m = root.withObject("/TC_TO_DSCP_MAP").putObject("EGRESS");
            for (int tc = 0; tc < 8; tc++) {
                m.put(String.valueOf(tc), tc == 3 ? "26" : tc == 6 ? "48" : "0");
            }
            root.withObject("/PORT_QOS_MAP/Ethernet0").put("tc_to_dscp_map", "EGRESS");
        }
        Lab lab = new Lab(b.build());
        HostStub tenant = lab.flow(1, 0, 26, 2, 0xC001, 1024).gap(20_000);
        tenant.start();
        lab.time.runFor(1_000_000);
        HostStub receiver = lab.hosts.get(0);
        assertTrue(receiver.rxFrames > 10, "frames arrive: " + receiver.rxFrames);
        assertEquals(remark ? 0 : 26, receiver.lastDscp, "the DSCP the frames leave with");
        assertEquals(remark ? receiver.rxFrames : 0, lab.sw.counters(0).egressDscpRemarked,
            "counted on the egress port, once per rewritten packet");
        assertEquals(0, lab.sw.counters(1).egressDscpRemarked);
        lab.drainAndClose();
    }

    /**
     * A host storms PFC on priority 3: with 3 in its port's pfc_enable the switch stops sending to it;
     * without, the frames are counted (rx and ignored) and the traffic to it goes on.
     */
    @ParameterizedTest(name = "pfc_enable has 3: {0}")
    @ValueSource(booleans = {true, false})
    void pfcForAPriorityThePortDoesNotEnableIsCountedNotObeyed(boolean enabled) {
        ConfigBuilder b = three();
        if (!enabled) {
            b.root().withObject("/PORT_QOS_MAP/Ethernet0").put("pfc_enable", "");
        }
        Lab lab = new Lab(b.build());
        HostStub sender = lab.flow(1, 0, 26, 2, 0xC001, 1024).gap(2_000);
        HostStub rogue = lab.hosts.get(0);
        rogue.storm(3, Pfc.quantaToNanos(0xFFFF, lab.speed) / 2);
        sender.start();
        lab.time.runFor(500_000);
        long before = rogue.rxFrames;
        lab.time.runFor(1_000_000);
        long during = rogue.rxFrames - before;
        long rx = lab.sw.counters(0).rxPfc[3];
        long ignored = lab.sw.counters(0).rxPfcIgnored[3];
        assertTrue(rx >= 5, "the MAC counts every PFC frame: " + rx);
        if (enabled) {
            assertEquals(0, during, "paused: nothing reaches the storming host");
            assertEquals(0, ignored);
        } else {
            assertTrue(during > 300, "not paused: " + during + " frames in 1 ms");
            assertEquals(rx, ignored, "every one counted as not acted on");
        }
        rogue.stopStorm();
        lab.drainAndClose();
    }

    private static void acls(ObjectNode root) {
        root.withObject("/ACL_TABLE").putObject("DATAACL").put("type", "L3").put("stage", "ingress")
            .put("policy_desc", "tenant").putArray("ports").add("Ethernet4");
        root.withObject("/ACL_RULE").putObject("DATAACL|DENY_H0").put("PRIORITY", "10").put("PACKET_ACTION", "DROP")
            .put("DST_IP", "10.0.0.1/32");
        root.withObject("/ACL_TABLE").putObject("EVERFLOW").put("type", "MIRROR").put("stage", "ingress")
            .put("policy_desc", "mirror RoCE").putArray("ports").add("Ethernet4");
        root.withObject("/ACL_RULE").putObject("EVERFLOW|ROCE").put("PRIORITY", "100")
            .put("MIRROR_INGRESS_ACTION", "span").put("IP_PROTOCOL", "17").put("L4_DST_PORT", "4791");
        root.withObject("/MIRROR_SESSION").putObject("span").put("type", "SPAN").put("dst_port", "Ethernet8");
    }

    /** The higher PRIORITY wins; every table bound to the port acts; the rules count what they matched. */
    @Test
    void rulesDropMirrorAndCount() {
        ConfigBuilder b = three();
        acls(b.root());
        b.root().withObject("/ACL_RULE").putObject("DATAACL|ALLOW_ROCE").put("PRIORITY", "20")
            .put("PACKET_ACTION", "FORWARD").put("L4_SRC_PORT_RANGE", "49152-49153");
        Lab lab = new Lab(b.build());
        HostStub allowed = lab.flow(1, 0, 26, 2, 0xC001, 1024).gap(20_000);
        allowed.start();
        lab.time.runFor(1_000_000);
        allowed.stop();
        long sent = allowed.sentFrames;
        long sentBytes = allowed.sentBytes;
        // the same host, now from a source port outside the FORWARD rule's range
        HostStub denied = lab.flow(1, 0, 26, 2, 0xC005, 1024).gap(20_000);
        lab.time.runFor(100_000);
        long delivered = lab.hosts.get(0).rxFrames;
        denied.start();
        lab.time.runFor(1_000_000);
        denied.stop();
        lab.time.runFor(100_000);
        assertEquals(delivered, lab.hosts.get(0).rxFrames, "source port 0xC005 is outside the FORWARD range: dropped");
        long all = denied.sentFrames;
        assertTrue(delivered == sent && sent > 10, delivered + " of " + sent);
        assertTrue(all - sent > 10, "denied frames sent: " + (all - sent));
        assertEquals(all - sent, lab.sw.counters(1).drops(DropReason.ACL));
        List<AclStage.RuleCounter> c = lab.sw.aclCounters();
        assertEquals(List.of("DENY_H0", "ROCE", "ALLOW_ROCE"), c.stream().map(AclStage.RuleCounter::rule).toList());
        assertEquals(all - sent, c.get(0).packets());
        assertEquals(all, c.get(1).packets(), "the mirror table matches every RoCE frame");
        assertEquals(sent, c.get(2).packets());
        assertEquals(sentBytes, c.get(2).bytes());
        assertEquals(all, lab.hosts.get(2).rxFrames, "the SPAN destination got a copy of each, dropped ones too");
        lab.drainAndClose();
    }

    /**
     * An egress table on the receiver's port: SET_DSCP rewrites what leaves, a DROP rule of higher
     * priority for one source port wins over it, and the ingress port counts the ACL drops.
     */
    @Test
    void anEgressTableRewritesAndDropsWhatLeavesItsPort() {
        ConfigBuilder b = three();
        ObjectNode root = b.root();
        root.withObject("/ACL_TABLE").putObject("EGRESS_ACL").put("type", "L3").put("stage", "egress")
            .putArray("ports").add("Ethernet0");
        root.withObject("/ACL_RULE").putObject("EGRESS_ACL|TO_AF11").put("PRIORITY", "10").put("DSCP", "26")
            .put("SET_DSCP", "10");
        root.withObject("/ACL_RULE").putObject("EGRESS_ACL|NOT_FROM_H2").put("PRIORITY", "20")
            .put("PACKET_ACTION", "DROP").put("SRC_IP", "10.0.0.3/32");
        Lab lab = new Lab(b.build());
        HostStub h1 = lab.flow(1, 0, 26, 2, 0xC001, 1024).gap(20_000);
        HostStub h2 = lab.flow(2, 0, 26, 2, 0xC002, 1024).gap(20_000);
        h1.start();
        h2.start();
        lab.time.runFor(1_000_000);
        h1.stop();
        h2.stop();
        lab.time.runFor(100_000);
        HostStub receiver = lab.hosts.get(0);
        assertEquals(h1.sentFrames, receiver.rxFrames, "only h1's frames arrive");
        assertEquals(10, receiver.lastDscp, "with the DSCP the egress rule set");
        assertEquals(h2.sentFrames, lab.sw.counters(2).drops(DropReason.ACL), "h2's dropped, counted at its ingress port");
        List<AclStage.RuleCounter> c = lab.sw.aclCounters();
        assertEquals(h1.sentFrames, c.get(0).packets());
        assertEquals(h2.sentFrames, c.get(1).packets());
        lab.drainAndClose();
    }

    /** Every mistake, one line each, naming TABLE|key. */
    @Test
    void mistakesAreOneLineEach() {
        ConfigBuilder b = three();
        ObjectNode root = b.root();
        acls(root);
        root.withObject("/ACL_TABLE").putObject("BAD").put("type", "L3").put("stage", "sideways").putArray("ports")
            .add("Ethernet99");
        root.withObject("/ACL_RULE").putObject("DATAACL|R1").put("PRIORITY", "5").put("SRC_IP", "10.0.0.300/32")
            .put("PACKET_ACTION", "DROP");
        root.withObject("/ACL_RULE").putObject("DATAACL|R2").put("PRIORITY", "5").put("SRC_IPV6", "fd00::1/128")
            .put("PACKET_ACTION", "DROP");
        root.withObject("/ACL_RULE").putObject("NOPE|R3").put("PRIORITY", "5").put("PACKET_ACTION", "DROP");
        root.withObject("/ACL_RULE").putObject("EVERFLOW|R4").put("PRIORITY", "5").put("MIRROR_INGRESS_ACTION", "gone")
            .put("L4_DST_PORT_RANGE", "5000-4000");
        root.withObject("/ACL_RULE").putObject("DATAACL|R5").put("PRIORITY", "5").put("SRC_IPP", "10.0.0.1");
        root.withObject("/MIRROR_SESSION").putObject("nowhere").put("type", "SPAN");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.read(root.toPrettyString()));
        assertEquals(List.of(
            "MIRROR_SESSION|nowhere: a SPAN session needs dst_port, the port its copies leave by",
            "ACL_TABLE|BAD: stage must be ingress or egress, not 'sideways'",
            "ACL_TABLE|BAD: ports: 'Ethernet99' is not a port or a port channel (PORT, PORTCHANNEL)",
            "ACL_RULE|DATAACL|R1: SRC_IP must be an IPv4 prefix like 10.0.0.1/32, not '10.0.0.300/32'",
            "ACL_RULE|DATAACL|R2: a L3 table's rules cannot use SRC_IPV6",
            "ACL_RULE|NOPE|R3: table 'NOPE' is not in ACL_TABLE",
            "ACL_RULE|EVERFLOW|R4: MIRROR_INGRESS_ACTION names session 'gone', not in MIRROR_SESSION",
            "ACL_RULE|EVERFLOW|R4: L4_DST_PORT_RANGE 5000-4000: the low end is above the high end",
            "ACL_RULE|DATAACL|R5: unknown field 'SRC_IPP'",
            "ACL_RULE|DATAACL|R5: no action (PACKET_ACTION)"), e.problems());
    }
}
