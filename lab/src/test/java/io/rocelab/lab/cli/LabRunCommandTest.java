package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab lab run/list} as a user runs them: a shipped lab, its claims, its files, its determinism. */
class LabRunCommandTest {
    @TempDir
    Path tmp;

    @Test
    void listShowsTheShippedLabsOneLineEach() {
        CliRun run = CliRun.of("lab", "list");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("pfc-basics ") && l.contains("8:1 incast")), run.out());
        for (String lab : List.of("dcqcn", "dcqcn-parameters", "pfc-storm", "pfc-storm-spreading", "link-failure",
                "trust-boundary", "pfc-attack", "cnp-mirror")) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(lab + " ")), lab + " in " + run.out());
        }
        assertTrue(lines.stream().noneMatch(l -> l.contains("does not read")), run.out());
    }

    /**
     * A lab without {@code probes:} samples everything at an interval from its duration (at most 2,000
     * samples, never finer than 10 us), and {@code --duration} moves it along.
     */
    @Test
    void withoutAnIntervalTheProbesFollowTheDuration() throws IOException {
        Path f = tmp.resolve("idle.yaml");
        Files.writeString(f, """
            name: idle
            duration: 1s
            topology:
              leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2}
            flows:
              - {name: f, from: h0, to: h1, messages: 10}
            expect:
              - flows.messages == 10
            """);
        CliRun second = CliRun.of("lab", "run", f.toString(), "--out", tmp.resolve("1s").toString());
        assertEquals(0, second.exitCode(), second.out() + second.err());
        assertTrue(second.out().contains(", 1s, probes every 500us\n"), second.out());
        assertEquals(1 + 2_000, Files.readAllLines(tmp.resolve("1s/flow-rate.csv")).size());
        assertTrue(Files.readString(tmp.resolve("1s/queue-depth.csv")).startsWith("time_us,depth_leaf0_Ethernet0_3_kb,"),
            "every cabled port's RoCE queue, as with an empty probes: section");
        CliRun shorter = CliRun.of("lab", "run", f.toString(), "--duration", "2ms", "--out", tmp.resolve("2ms").toString());
        assertEquals(0, shorter.exitCode(), shorter.out() + shorter.err());
        assertTrue(shorter.out().contains(", 2ms, probes every 10us\n"), shorter.out());
        assertEquals(1 + 200, Files.readAllLines(tmp.resolve("2ms/flow-rate.csv")).size());
    }

    @Test
    void pfcBasicsHoldsItsClaimsAndWritesTheReport() throws IOException {
        Path out = tmp.resolve("pfc");
        CliRun run = CliRun.of("lab", "run", "pfc-basics", "--duration", "1ms", "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("PASS  the lossless class drops nothing  (0 == 0)"), run.out());
        assertTrue(run.out().contains("PASS  the lossy class drops packets"), run.out());
        assertFalse(run.out().contains("FAIL"), run.out());
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("## Variant lossless") && report.contains("## Variant lossy"), report);
        assertTrue(report.contains("| incast-h1 | h1 | h0 | WRITE |"), report);
        assertTrue(report.contains("![lossless-flow-rate.png](lossless-flow-rate.png)"), report);
        assertTrue(report.contains("| PASS | the lossless class drops nothing |"), report);
        List<String> csv = Files.readAllLines(out.resolve("lossless-flow-rate.csv"));
        assertTrue(csv.get(0).startsWith("time_us,rate_incast-h1_gbps,rate_incast-h2_gbps,"), csv.get(0));
        assertEquals(1 + 100, csv.size(), "a row per 10 us sample of 1 ms");
        for (String png : List.of("lossless-flow-rate.png", "lossless-queue-depth.png", "lossy-pause.png")) {
            BufferedImage img = ImageIO.read(out.resolve(png).toFile());
            assertTrue(img.getWidth() > 500, png);
        }
        byte[] pcap = Files.readAllBytes(out.resolve("lossless-capture.pcapng"));
        assertTrue(contains(pcap, new byte[] {(byte) 0x88, 0x08, 0x01, 0x01}), "PFC pause frames in the capture");
        assertTrue(report.contains("Capture: [lossless-capture.pcapng](lossless-capture.pcapng)"), report);
        String json = Files.readString(out.resolve("counters.json"));
        assertTrue(json.contains("\"lossless\"") && json.contains("\"leaf0:Ethernet0:3\""), json);
    }

    /**
     * pause-vs-pfc at two seeds: every claim holds at each; the report lists the 802.3x PAUSE frames;
     * and Wireshark decodes the leaf's frames in the PAUSE variant's capture as MAC Control PAUSE
     * (opcode 0x0001, a pause time of 65535 quanta and the resume's 0), those of the PFC variant as
     * PFC (opcode 0x0101).
     */
    @Test
    void pauseVsPfcHoldsItsClaimsAtTwoSeedsAndTsharkDecodesThePause() throws Exception {
        for (String seed : List.of("1", "2")) {
            Path out = tmp.resolve("pause-" + seed);
            CliRun run = CliRun.of("lab", "run", "pause-vs-pfc", "--seed", seed, "--out", out.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertFalse(run.out().contains("FAIL"), run.out());
            for (String claim : List.of("with PFC the lossy flow keeps most of h1's cable",
                "with PAUSE the incast's pauses stop the lossy flow too, below half its PFC rate",
                "with PAUSE the leaf sends 802.3x PAUSE to h1 and no PFC; h1's NIC receives it",
                "with PFC the leaf sends PFC and no PAUSE", "neither run drops a packet, in either class")) {
                assertTrue(run.out().contains("PASS  " + claim), claim + " at seed " + seed + ":\n" + run.out());
            }
            String report = Files.readString(out.resolve("report.md"));
            assertTrue(report.contains("### 802.3x PAUSE") && report.contains("| NIC h1 | 0 | "), report);
            byte[] pcap = Files.readAllBytes(out.resolve("pause-capture.pcapng"));
            assertTrue(contains(pcap, new byte[] {(byte) 0x88, 0x08, 0x00, 0x01, (byte) 0xFF, (byte) 0xFF}),
                "a PAUSE of 65535 quanta in the capture");
        }
        List<String> pause = tsharkMacControl(tmp.resolve("pause-1/pause-capture.pcapng"));
        List<String> pfc = tsharkMacControl(tmp.resolve("pause-1/pfc-capture.pcapng"));
        if (pause == null) {
            return;
        }
        assertTrue(pause.contains("0x0001,65535") && pause.contains("0x0001,0"), "PAUSE and its resume: " + pause);
        assertTrue(pause.stream().allMatch(l -> l.startsWith("0x0001,")), "nothing but PAUSE: " + pause);
        assertTrue(!pfc.isEmpty() && pfc.stream().allMatch(l -> l.startsWith("0x0101,")), "PFC: " + pfc);
    }

    /**
     * @return tshark's {@code macc.opcode,macc.pause_time} of every MAC Control frame of a capture, or
     *         null without tshark (a loud line; a failure under {@code CI=true}, where it is installed)
     */
    private static List<String> tsharkMacControl(Path file) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("tshark", "-n", "-r", file.toString(), "-Y", "macc", "-T", "fields", "-E",
                "separator=,", "-e", "macc.opcode", "-e", "macc.pause_time")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("tshark is not installed, but .ci/run installs it", e);
            }
            System.err.println("SKIPPED: tshark not installed; Wireshark's view of the PAUSE frames is NOT checked");
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "tshark finished");
        assertEquals(0, p.exitValue(), "tshark on " + file);
        return out.lines().toList();
    }

    /** @return whether {@code what} occurs in {@code data} (a MAC Control PFC frame: EtherType 0x8808, opcode 0x0101) */
    private static boolean contains(byte[] data, byte[] what) {
        outer:
        for (int i = 0; i + what.length <= data.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (data[i + j] != what[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Test
    void dcqcnConvergesFairlyAndThePausesStop() throws IOException {
        Path out = tmp.resolve("dcqcn");
        CliRun run = CliRun.of("lab", "run", "dcqcn", "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("PASS  with DCQCN the senders converge to fair shares"), run.out());
        assertTrue(run.out().contains("PASS  with DCQCN the pauses stop once the rates have converged"), run.out());
        assertFalse(run.out().contains("FAIL"), run.out());
        assertTrue(Files.exists(out.resolve("pfc_only-queue-depth.png")));
    }

    /**
     * NIC and switch disagreeing on the lossless priority (PFC on 4 at the NICs, on 3 at the leaf; one
     * NIC trusting PCP) drop in the lossless class; set alike they do not. Two seeds.
     */
    @Test
    void dcbxMismatchDropsInTheLosslessClassAndMatchingSettingsDoNot() throws IOException {
        for (String seed : List.of("1", "2")) {
            Path out = tmp.resolve("dcbx-" + seed);
            CliRun run = CliRun.of("lab", "run", "dcbx-mismatch", "--seed", seed, "--out", out.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            for (String claim : List.of("set alike, the leaf pauses the senders and drops nothing",
                    "with PFC on 4 the NICs count the leaf's pauses on 3 and do not act on them",
                    "with PFC on 4 the leaf drops in the lossless class",
                    "h1 trusting PCP is paused on 3 and goes on; its port alone drops")) {
                assertTrue(run.out().contains("PASS  " + claim), claim + " in\n" + run.out());
            }
            assertFalse(run.out().contains("FAIL"), run.out());
            String counters = Files.readString(out.resolve("counters.json"));
            assertTrue(counters.contains("\"pfc_ignored\"") && counters.contains("\"pfc_enable\""), counters);
            assertTrue(Files.readString(out.resolve("report.md")).contains("PFC pauses not acted on, their priority's PFC "
                + "off at the NIC (rx_pfc_ignored), per NIC: h1 6, h2 6, h3 6, h4 6."), "the report says which NICs ignored");
        }
    }

    @Test
    void pfcStormIsDetectedAndRestoredByTheWatchdog() {
        CliRun run = CliRun.of("lab", "run", "pfc-storm", "--out", tmp.resolve("storm").toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("PASS  the watchdog detects the storm"), run.out());
        assertTrue(run.out().contains("PASS  the innocent flow keeps its rate during the storm (within 5 %)"), run.out());
        assertFalse(run.out().contains("FAIL"), run.out());
    }

    @Test
    void aStormWithoutTheWatchdogSpreadsAndStallsAnInnocentFlow() {
        CliRun run = CliRun.of("lab", "run", "pfc-storm-spreading", "--out", tmp.resolve("spread").toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("PASS  without the watchdog the storm stalls the innocent flow"), run.out());
        assertTrue(run.out().contains("PASS  with the watchdog the innocent flow keeps 90 % of its rate"), run.out());
        assertFalse(run.out().contains("FAIL"), run.out());
    }

    @Test
    void linkFailureFlowsRetransmitAndFinishWithoutErrors() throws IOException {
        Path out = tmp.resolve("failure");
        CliRun run = CliRun.of("lab", "run", "link-failure", "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("PASS  every flow completes despite the failure"), run.out());
        assertTrue(run.out().contains("PASS  the QPs resent what the cut cables lost"), run.out());
        assertFalse(run.out().contains("FAIL"), run.out());
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("- t=300.000 us: switch spine0 fails (every cable of it down)"), report);
    }

    @Test
    void aSweepOverKmaxShowsTheStandingQueueFollowIt() {
        CliRun run = CliRun.of("lab", "run", "dcqcn-parameters", "--out", tmp.resolve("sweep").toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("2 variants (kmax_200KB, kmax_800KB)"), run.out());
        assertTrue(run.out().contains("PASS  a lower Kmax keeps a shorter standing queue"), run.out());
        assertFalse(run.out().contains("FAIL"), run.out());
    }

    @Test
    void oneSeedGivesTheSameCsvsAndCounters() throws IOException {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        Path c = tmp.resolve("c");
        String lab = writeLab();
        assertEquals(0, CliRun.of("lab", "run", lab, "--seed", "5", "--out", a.toString()).exitCode());
        assertEquals(0, CliRun.of("lab", "run", lab, "--seed", "5", "--out", b.toString()).exitCode());
        assertEquals(0, CliRun.of("lab", "run", lab, "--seed", "6", "--out", c.toString()).exitCode());
        List<String> files;
        try (Stream<Path> s = Files.list(a)) {
            files = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".csv") || n.endsWith(".json"))
                .sorted().toList();
        }
        // lab-run.json: what ran, for 'lab report' (the lab file, its SHA-256, the seed): the same for the same seed
        assertEquals(List.of("counters.csv", "counters.json", "flow-rate.csv", "lab-run.json", "pause.csv",
            "queue-depth.csv"), files);
        for (String f : files) {
            assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f);
        }
        // the seed decides: the lossy link drops other frames with another one
        assertFalse(Files.readString(a.resolve("counters.json")).equals(Files.readString(c.resolve("counters.json"))));
    }

    /** A lab whose outcome depends on the seed: a lossy cable under RC writes. */
    private String writeLab() throws IOException {
        Path f = tmp.resolve("lossy-cable.yaml");
        Files.writeString(f, """
            name: lossy-cable
            description: two writers through a leaf, one cable losing 1 % of its frames
            duration: 300us
            topology:
              hosts: [h0, h1, h2]
              switches: [{name: leaf0, ports: 3}]
              links:
                - {a: h0, b: leaf0:Ethernet0}
                - {a: h1, b: leaf0:Ethernet4, loss: 1%}
                - {a: h2, b: leaf0:Ethernet8}
            flows:
              - {name: w1, from: h1, to: h0, ack-timeout: 4}
              - {name: w2, from: h2, to: h0}
            probes: {interval: 5us}
            expect:
              - check: flows.errors == 0
            """);
        return f.toString();
    }

    @Test
    void aFatTreeWithBackgroundLoadEventsAndASweep() throws IOException {
        Files.writeString(tmp.resolve("sizes.txt"), "# bytes, cumulative %\n1000 10\n10000 50\n100000 90\n1000000 100\n");
        Path f = tmp.resolve("ft.yaml");
        Files.writeString(f, """
            name: ft-sweep
            duration: 300us
            topology:
              fat-tree: {k: 4}
            nics: {cc: dcqcn}
            flows:
              - {name: incast, from: "h[1-4]", to: h0, messages: 5, start: 10us}
              - {name: late, from: h5, to: h6, start: event, size-cdf: sizes.txt}
            background:
              - {name: bg, load: 20%, size-cdf: sizes.txt, stop: 200us}
            events:
              - {at: 50us, flow-start: late}
              - {at: 100us, link-faults: {link: h7, loss: 1%}}
            probes: {interval: 5us, sample: [flow-rate, cnps]}
            sweep: {key: qos.ecn.kmin, values: [50KB, 100KB], name: kmin}
            expect:
              - delta(kmin_50KB.flow("late").bytes, to=50us) == 0 and kmin_50KB.flow("late").bytes > 0
              - kmin_100KB.flows("incast-*").fct < 300us
            """);
        Path out = tmp.resolve("ft");
        CliRun run = CliRun.of("lab", "run", f.toString(), "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("2 variants (kmin_50KB, kmin_100KB)"), run.out());
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("Background load: ") && report.contains(" completed, "), report);
        assertTrue(Files.exists(out.resolve("kmin_100KB-flow-rate.csv")));
        assertFalse(Files.exists(out.resolve("kmin_100KB-queue-depth.csv")), "queue-depth was not sampled");
    }

    @Test
    void aLabRunsLiveOnTheWallClock() throws IOException {
        Path f = tmp.resolve("live.yaml");
        Files.writeString(f, """
            name: live-pair
            description: two writers through a leaf, in real time
            duration: 300ms
            modes: [virtual, live]
            topology:
              hosts: [h0, h1, h2]
              switches: [{name: leaf0, ports: 3, speed: 10G}]
              links:
                - {a: h0, b: leaf0:Ethernet0}
                - {a: h1, b: leaf0:Ethernet4}
                - {a: h2, b: leaf0:Ethernet8}
            flows:
              - {name: w1, from: h1, to: h0, messages: 200, ack-timeout: 18}
              - {name: w2, from: h2, to: h0, messages: 200, ack-timeout: 18}
            probes: {interval: 20ms}
            expect:
              - check: flows.errors == 0
              - check: flows.messages == 200
              - check: flows.bytes == 200 * 64KiB
            """);
        Path out = tmp.resolve("live");
        long t0 = System.nanoTime();
        CliRun run = CliRun.of("lab", "run", f.toString(), "--mode", "live", "--out", out.toString());
        long wallMs = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("live (real time, one event loop)"), run.out());
        assertTrue(run.out().contains("ran 300ms in ") && run.out().contains(" s wall (live)"), run.out());
        assertTrue(wallMs >= 300, "the wall clock ran the 300 ms: " + wallMs + " ms");
        assertFalse(run.out().contains("FAIL"), run.out());
        String csv = Files.readString(out.resolve("flow-rate.csv"));
        assertTrue(csv.lines().count() >= 15, "a sample every 20 ms of 300 ms: " + csv);
    }

    @Test
    void aVirtualOnlyLabRefusesLiveMode() {
        CliRun run = CliRun.of("lab", "run", "pfc-basics", "--mode", "live", "--out", tmp.resolve("x").toString());
        assertEquals(2, run.exitCode());
        assertEquals("rocelab: pfc-basics: lab pfc-basics runs in virtual mode only, not live\n", run.err());
        assertFalse(Files.exists(tmp.resolve("x")));
    }
}
