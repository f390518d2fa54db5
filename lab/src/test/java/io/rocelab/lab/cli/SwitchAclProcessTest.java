package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SONiC's ACLs in {@code rocelab switch} as a user runs it: a config_db with an L3 and a MIRROR
 * table, {@code ib_write_bw} across the switch process, then {@code show acl table}, {@code show
 * acl rule}, {@code show acl counters} (aclshow -a's table) and {@code clear acl}; an ACL mistake is
 * one line naming TABLE|key, exit code 2.
 */
@Timeout(180)
class SwitchAclProcessTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final ToolProcesses tools = ToolProcesses.in(() -> dir);

    private Path config(boolean mistake) throws Exception {
        ObjectNode root;
        root = DemoLeaf.tables();
        root.withObject("/ACL_TABLE").putObject("DATAACL").put("type", "L3").put("stage", "ingress")
            .put("policy_desc", "tenant ACL").putArray("ports").add("Ethernet4").add("Ethernet0");
        root.withObject("/ACL_TABLE").putObject("EVERFLOW").put("type", "MIRROR").put("stage", "ingress")
            .put("policy_desc", "EVERFLOW").putArray("ports").add("Ethernet4");
        root.withObject("/ACL_RULE").putObject("DATAACL|RULE_1").put("PRIORITY", "9999")
            .put("PACKET_ACTION", "FORWARD").put("IP_PROTOCOL", "17").put("L4_DST_PORT", "4791");
        root.withObject("/ACL_RULE").putObject("DATAACL|DEFAULT_RULE").put("PRIORITY", "1")
            .put("PACKET_ACTION", "DROP").put("ETHER_TYPE", mistake ? "0x1234567" : "2048");
        root.withObject("/ACL_RULE").putObject("EVERFLOW|RULE_1").put("PRIORITY", "100")
            .put("MIRROR_INGRESS_ACTION", "span").put("DSCP", "0").put("L4_DST_PORT", "4791");
        // the mirror port: plugged into a UDP port nobody reads
        root.withObject("/PORT").putObject("Ethernet8").put("speed", "100000");
        root.withObject("/MIRROR_SESSION").putObject("span").put("type", "SPAN").put("dst_port", "Ethernet8");
        Path f = dir.resolve(mistake ? "bad.json" : "config_db.json");
        Files.writeString(f, root.toPrettyString());
        return f;
    }

    @Test
    void showAclTablesRulesAndCountersOfARunningSwitch() throws Exception {
        int serverNic = ToolProcesses.freeUdpPort();
        int clientNic = ToolProcesses.freeUdpPort();
        int e0 = ToolProcesses.freeUdpPort();
        int e4 = ToolProcesses.freeUdpPort();
        int tcp = ToolProcesses.freeTcpPort();
        Path socket = dir.resolve("leaf.sock");
        Process sw = tools.start("switch", "switch", "--config", config(false).toString(),
            "--port", "Ethernet0=udp:" + e0 + ":" + serverNic, "--port", "Ethernet4=udp:" + e4 + ":" + clientNic,
            "--port", "Ethernet8=udp:" + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort(),
            "--socket", socket.toString());
        tools.awaitOutput(sw, "switch", "ready", 60);
        CliRun table = CliRun.of("switch", "show", "acl", "table", "--socket", socket.toString());
        assertEquals(0, table.exitCode(), table.err());
        assertEquals("""
            Name      Type    Binding    Description  Stage    Status
            --------  ------  ---------  -----------  -------  ------
            DATAACL   L3      Ethernet0  tenant ACL   ingress  Active
                              Ethernet4
            EVERFLOW  MIRROR  Ethernet4  EVERFLOW     ingress  Active
            """, table.out());
        CliRun rule = CliRun.of("switch", "show", "acl", "rule", "--socket", socket.toString());
        assertEquals(0, rule.exitCode(), rule.err());
        assertEquals("""
            Table     Rule          Priority  Action                Match              Status
            --------  ------------  --------  --------------------  -----------------  ------
            DATAACL   RULE_1            9999  FORWARD               IP_PROTOCOL: 17    Active
                                                                    L4_DST_PORT: 4791
            EVERFLOW  RULE_1             100  MIRROR INGRESS: span  DSCP: 0            Active
                                                                    L4_DST_PORT: 4791
            DATAACL   DEFAULT_RULE         1  DROP                  ETHER_TYPE: 2048   Active
            """, rule.out());

        CliRun sessions = CliRun.of("switch", "show", "mirror_session", "--socket", socket.toString());
        assertEquals(0, sessions.exitCode(), sessions.err());
        assertTrue(sessions.out().contains("SPAN Sessions\nName  Status  DST Port   SRC Port  Direction  Queue  Policer\n"
            + "----  ------  ---------  --------  ---------  -----  -------\nspan  active  Ethernet8\n"), sessions.out());

        Process server = tools.start("server", "ib_write_bw", "--udp-frame", serverNic + ":" + e0,
            "-n", "200", "-s", "4096", "-p", String.valueOf(tcp));
        tools.awaitOutput(server, "server", "Waiting for client", 60);
        Process client = tools.start("client", "ib_write_bw", "--udp-frame", clientNic + ":" + e4,
            "--ip", "10.77.0.2", "--mac", "52:54:00:77:01:02",
            "-n", "200", "-s", "4096", "-p", String.valueOf(tcp), "127.0.0.1");
        assertTrue(client.waitFor(150, TimeUnit.SECONDS), "client did not finish: " + tools.output("client"));
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not finish: " + tools.output("server")
            + tools.output("client"));
        assertEquals(0, client.exitValue(), tools.output("client"));
        assertEquals(0, server.exitValue(), tools.output("server"));

        CliRun counters = CliRun.of("switch", "show", "acl", "counters", "--socket", socket.toString());
        assertEquals(0, counters.exitCode(), counters.err());
        System.out.print(counters.out());
        assertTrue(counters.out().startsWith("RULE NAME     TABLE NAME  PRIO  PACKETS COUNT  BYTES COUNT\n"
            + "------------  ----------  ----  -------------  -----------\n"), counters.out());
        // the RoCE traffic crosses DATAACL: at least the 200 writes (ACKs from Ethernet0 too)
        long roce = count(counters.out(), "RULE_1", "DATAACL");
        assertTrue(roce >= 200, counters.out());
        // the client's frames carry perftest's default traffic class (DSCP 0) and EVERFLOW mirrors them
        long mirrored = count(counters.out(), "RULE_1", "EVERFLOW");
        assertTrue(mirrored >= 200 && mirrored <= roce, counters.out());
        // the copies left by Ethernet8 (beside the few broadcasts flooded there: ARP)
        CliRun ifaces = CliRun.of("switch", "show", "interfaces", "counters", "--socket", socket.toString());
        String e8 = ifaces.out().lines().filter(l -> l.trim().startsWith("Ethernet8 ")).findFirst().orElseThrow();
        long tx = Long.parseLong(e8.trim().split("\\s+")[8]);
        assertTrue(tx >= mirrored && tx <= mirrored + 10, ifaces.out());
        assertEquals(0, count(counters.out(), "DEFAULT_RULE", "DATAACL"), "nothing else came: " + counters.out());

        CliRun clear = CliRun.of("switch", "clear", "acl", "--socket", socket.toString());
        assertEquals(0, clear.exitCode(), clear.err());
        CliRun after = CliRun.of("switch", "show", "acl", "counters", "--socket", socket.toString());
        assertEquals(0, count(after.out(), "RULE_1", "DATAACL"), after.out());
    }

    /** The packets count of a rule in aclshow's table. */
    private static long count(String table, String rule, String aclTable) {
        return table.lines().map(l -> l.trim().split("\\s+")).filter(c -> c[0].equals(rule) && c[1].equals(aclTable))
            .mapToLong(c -> Long.parseLong(c[3])).findFirst().orElseThrow(() -> new AssertionError(table));
    }

    @Test
    void anAclMistakeIsOneLineAndExitTwo() throws Exception {
        CliRun r = CliRun.of("switch", "--config", config(true).toString(), "--port", "Ethernet0=udp:"
            + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort());
        assertEquals(2, r.exitCode(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("ACL_RULE|DATAACL|DEFAULT_RULE: ETHER_TYPE must be 0-65535, not '0x1234567'"),
            r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }
}
