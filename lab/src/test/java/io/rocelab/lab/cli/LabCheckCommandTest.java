package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad lab files as a user meets them: {@code rocelab lab check} and {@code lab run} print one line
 * per mistake with its place, exit with 2 and write nothing.
 */
class LabCheckCommandTest {
    private static final String GOOD = """
        name: small
        duration: 1ms
        topology:
          hosts: [h0, h1, {name: h2, ip: 10.0.0.3}]
          switches: [{name: leaf0, ports: 3}]
          links:
            - {a: h0, b: leaf0:Ethernet0}
            - {a: h1, b: leaf0:Ethernet4}
            - {a: h2, b: leaf0:Ethernet8}
        flows:
          - {from: h1, to: h0}
        events:
          - {at: 100us, link-down: h2}
        expect:
          - check: flows.errors == 0
        """;

    @TempDir
    Path tmp;

    private Path file(String name, String text) throws IOException {
        Path f = tmp.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    /** Checks and runs {@code text}: the one line {@code expected} (after the file's name), exit 2, nothing written. */
    private void oneMistake(String name, String text, String expected) throws IOException {
        Path f = file(name + ".yaml", text);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(2, check.exitCode(), check.out());
        assertEquals(f + ":" + expected + "\n", check.err());
        assertEquals("", check.out());
        Path out = tmp.resolve(name + "-out");
        CliRun run = CliRun.of("lab", "run", f.toString(), "--out", out.toString());
        assertEquals(2, run.exitCode());
        assertEquals(check.err(), run.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    @Test
    void aGoodFileChecksInOneLine() throws IOException {
        Path f = file("good.yaml", GOOD);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(0, check.exitCode(), check.err());
        assertEquals(f + ": ok: lab small, 1 run, 1ms, 3 host(s), 1 switch(es), 1 flow(s), 1 event(s), 1 check(s)\n",
            check.out());
    }

    @Test
    void unknownNode() throws IOException {
        oneMistake("unknown-node", GOOD.replace("{a: h2, b: leaf0:Ethernet8}", "{a: h2, b: leaf9:Ethernet8}"),
            "9:7: topology: link 'h2:eth0--leaf9:Ethernet8': unknown node 'leaf9'");
    }

    @Test
    void duplicateNameAndDuplicateAddress() throws IOException {
        oneMistake("dup-name", GOOD.replace("switches: [{name: leaf0, ports: 3}]",
                "switches: [{name: leaf0, ports: 3}, {name: h1, ports: 1}]"),
            "4:3: topology: duplicate node name 'h1'");
        oneMistake("dup-address", GOOD.replace("ip: 10.0.0.3", "ip: 10.0.0.2"),
            "4:15: topology: host 'h2': ipv4 10.0.0.2 is also host 'h1''s");
    }

    @Test
    void linkToAMissingPort() throws IOException {
        oneMistake("missing-port", GOOD.replace("b: leaf0:Ethernet8", "b: leaf0:Ethernet12"),
            "5:14: topology: link 'h2:eth0--leaf0:Ethernet12': switch 'leaf0' has no port 'Ethernet12'");
    }

    @Test
    void flowBetweenUnreachableHosts() throws IOException {
        oneMistake("unreachable", GOOD.replace("switches: [{name: leaf0, ports: 3}]",
                "switches: [{name: leaf0, ports: 3}, {name: leaf1, ports: 1}]")
                .replace("b: leaf0:Ethernet8", "b: leaf1:Ethernet0")
                .replace("  - {from: h1, to: h0}\n", "  - {from: h1, to: h0}\n  - {from: h2, to: h0}\n"),
            "12:20: flows[1].to: no path from h2 to h0: they are unreachable over the fabric's links");
    }

    @Test
    void eventBeforeTimeZero() throws IOException {
        oneMistake("before-zero", GOOD.replace("at: 100us", "at: -5us"), "13:10: events[0].at: before time 0: -5us");
    }

    @Test
    void faultDrillsCheckAndNameWhatTheyLack() throws IOException {
        String drills = GOOD.replace("  - {at: 100us, link-down: h2}\n", """
              - {at: 100us, link-flap: {link: h2, times: 3, down: 20us, up: 30us}}
              - {at: 300us, switch-down: leaf0}
              - {at: 400us, switch-up: leaf0}
              - {at: 500us, port-silent: leaf0:Ethernet4}
              - {at: 600us, port-silent-stop: h1}
            """);
        Path f = file("drills.yaml", drills);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(0, check.exitCode(), check.err());
        assertTrue(check.out().contains("10 event(s)"), "three flaps are six events: " + check.out());
        oneMistake("bad-switch", drills.replace("switch-down: leaf0", "switch-down: leaf9"),
            "14:30: events[1].switch-down: unknown switch 'leaf9' (did you mean 'leaf0'?)");
        oneMistake("bad-port", drills.replace("port-silent: leaf0:Ethernet4", "port-silent: leaf0:Ethernet12"),
            "16:30: events[3].port-silent: no port 'leaf0:Ethernet12': nothing is cabled to leaf0:Ethernet12 "
                + "(a port is node:port, e.g. leaf0:Ethernet8, or a host's name)");
        oneMistake("long-flap", drills.replace("times: 3", "times: 30"),
            "13:46: events[0].link-flap.times: the last flap ends at 1570us, after the run (duration 1ms)");
    }

    @Test
    void badQosReference() throws IOException {
        oneMistake("bad-qos", GOOD.replace("duration: 1ms\n", "duration: 1ms\nqos: {profile: lossles}\n"),
            "3:16: qos.profile: no QoS profile 'lossles' (did you mean 'lossless'?); known: lossless, lossy");
    }

    @Test
    void badPfcThresholdsAndWatchdogPoll() throws IOException {
        oneMistake("bad-xon", GOOD.replace("duration: 1ms\n", "duration: 1ms\nqos: {pfc: {xon: 40KB}}\n"),
            "3:18: qos.pfc.xon: xon goes with an xoff (the headroom) of your own; without one each port takes the "
                + "SN2700 profile of its speed and cable");
        oneMistake("bad-headroom-type", GOOD.replace("duration: 1ms\n",
                "duration: 1ms\nqos: {pfc: {headroom-type: auto}}\n"),
            "3:28: qos.pfc.headroom-type: the headroom type is static or dynamic (SONiC's headroom_type), not 'auto'");
        oneMistake("bad-poll", GOOD.replace("duration: 1ms\n",
                "duration: 1ms\nqos: {watchdog: {detection: 1ms, poll: 500us}}\n"),
            "3:40: qos.watchdog.poll: the watchdog polls every whole number of milliseconds (SONiC's POLL_INTERVAL), "
                + "e.g. 1ms: 500us");
    }

    @Test
    void badPauseResponse() throws IOException {
        oneMistake("negative-pause-response", GOOD.replace("duration: 1ms\n",
                "duration: 1ms\nnics: {pause-response: -2us}\n"),
            "3:24: nics.pause-response: '-2us' is negative; a pause response is ieee, quanta (394q), a time"
                + " (2us, 500ns) or 0");
        oneMistake("unit-pause-response", GOOD.replace("duration: 1ms\n",
                "duration: 1ms\nnics: {pause-response: 2 parsecs}\n"),
            "3:24: nics.pause-response: '2 parsecs' is not a pause response: ieee, quanta (394q), a time"
                + " (2us, 500ns) or 0 (unknown unit 'parsecs')");
    }

    @Test
    void aCheckNamingWhatTheLabDoesNotHave() throws IOException {
        oneMistake("bad-check", GOOD.replace("flows.errors == 0", "flow(\"h9-h0\").errors == 0"),
            "15:12: expect[0].check: no flow 'h9-h0' (known: h1-h0)");
    }

    /** Against the planned (empty) runs the left side is false: the right side is read all the same. */
    @Test
    void aMistakeBehindAnAndThatIsFalseBeforeTheRun() throws IOException {
        oneMistake("behind-and", GOOD.replace("flows.errors == 0", "flows.errors > 0 and flow(\"h9-h0\").errors == 0"),
            "15:12: expect[0].check: no flow 'h9-h0' (known: h1-h0)");
    }

    @Test
    void everyMistakeOfAFileAtOnce() throws IOException {
        Path f = file("two.yaml", GOOD.replace("at: 100us", "at: -5us").replace("b: leaf0:Ethernet8",
            "b: leaf0:Ethernet12"));
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(2, check.exitCode());
        assertEquals(2, check.err().lines().count(), check.err());
        assertTrue(check.err().lines().allMatch(l -> l.startsWith(f + ":")), check.err());
    }

    @Test
    void anUnknownLabOrModeIsOneLine() {
        CliRun none = CliRun.of("lab", "run", "no-such-lab");
        assertEquals(2, none.exitCode());
        assertEquals("rocelab: no lab file 'no-such-lab', and no shipped lab of that name ('rocelab lab list' shows "
            + "them)\n", none.err());
        CliRun mode = CliRun.of("lab", "run", "pfc-basics", "--mode", "fast");
        assertEquals(2, mode.exitCode());
        assertEquals("rocelab: --mode must be virtual, live or netns: 'fast'\n", mode.err());
    }
}
