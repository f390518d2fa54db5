package io.rocelab.sw.sflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.codec.sflow.CounterSample;
import io.rocelab.codec.sflow.EthernetCounters;
import io.rocelab.codec.sflow.FlowSample;
import io.rocelab.codec.sflow.GenericInterfaceCounters;
import io.rocelab.codec.sflow.RawPacketHeader;
import io.rocelab.codec.sflow.SflowCodec;
import io.rocelab.codec.sflow.SflowDatagram;
import io.rocelab.codec.sflow.SflowDecoder;
import io.rocelab.codec.sflow.SflowSample;
import io.rocelab.sw.config.SflowConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.stats.PortCounters;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The switch's sFlow agent in virtual time: 1-in-N sampling at the rate sFlow says, per seed the
 * same samples, egress sampling, counter samples that say what the switch counted, datagrams
 * within hsflowd's size, each to every collector.
 */
class SflowAgentTest {
    private static final long SECOND = 1_000_000_000L;

    /** Records what the agent sends. */
    static final class Recorder implements SflowSink {
        final List<byte[]> datagrams = new ArrayList<>();
        final List<String> collectors = new ArrayList<>();
        final List<Long> times = new ArrayList<>();

        @Override
        public void send(SflowConfig.Collector collector, byte[] datagram, long nowNanos) {
            datagrams.add(datagram);
            collectors.add(collector.name());
            times.add(nowNanos);
        }

        List<SflowSample> samples(String collector) {
            SflowDecoder d = new SflowDecoder();
            List<SflowSample> out = new ArrayList<>();
            for (int i = 0; i < datagrams.size(); i++) {
                if (collectors.get(i).equals(collector)) {
                    SflowDatagram g = d.decode(datagrams.get(i));
                    assertNotNull(g, d.lastError());
                    out.addAll(g.samples());
                }
            }
            return out;
        }
    }

    private static SwitchConfig config(String ethernet0Direction, boolean twoCollectors) {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(3, 100), 3);
        ObjectNode root = b.root();
        root.withObject("/SFLOW").putObject("global").put("admin_state", "up").put("polling_interval", "5");
        root.withObject("/SFLOW_COLLECTOR").putObject("c1").put("collector_ip", "192.0.2.10");
        if (twoCollectors) {
            root.withObject("/SFLOW_COLLECTOR").putObject("c2").put("collector_ip", "192.0.2.11")
                .put("collector_port", "6400");
        }
        root.withObject("/LOOPBACK_INTERFACE").putObject("Loopback0|10.1.0.1/32");
        root.withObject("/SFLOW_SESSION").putObject("Ethernet4").put("sample_rate", "256");
        root.withObject("/SFLOW_SESSION").putObject("Ethernet0").put("sample_rate", "512")
            .put("sample_direction", ethernet0Direction);
        return b.build();
    }

    private record Run(Recorder rec, Lab lab, long frames) {
    }

    /** Host 1 sends {@code frames} RoCE writes to host 0 through a switch seeded {@code seed}, sFlow on. */
    private static Run run(SwitchConfig c, long seed, long frames) {
        Lab lab = new Lab(c, seed);
        Recorder rec = new Recorder();
        lab.sw.startSflow(rec);
        HostStub h = lab.flow(1, 0, 26, 2, 0xC001, 1024).gap(2_000);
        h.start();
        while (h.sentFrames < frames) {
            lab.time.runFor(100_000);
        }
        h.stop();
        long sent = h.sentFrames;
        lab.time.runFor(12 * SECOND);
        lab.sw.sflow().stop();
        lab.drainAndClose();
        return new Run(rec, lab, sent);
    }

    @Test
    void samplesOneInNAtRandomAndSaysWhereFrom() {
        Run r = run(config("rx", false), 7, 40_000);
        List<FlowSample> flows = r.rec.samples("c1").stream().filter(s -> s instanceof FlowSample)
            .map(s -> (FlowSample) s).filter(f -> f.input() == 5).toList();
        // 40,000 frames at 1-in-256: about 156; the skip is uniform on 1..511, so a few percent apart
        assertTrue(flows.size() > 120 && flows.size() < 195, "samples: " + flows.size());
        long seq = 0;
        for (FlowSample f : flows) {
            assertEquals(++seq, f.sequence(), "one sequence per data source");
            assertEquals(5, f.sourceId(), "ifIndex 5 = Ethernet4 (sonic-snmpagent: Ethernet N is N + 1)");
            assertEquals(256, f.samplingRate());
            assertEquals(0, f.output(), "ingress: output unknown");
            RawPacketHeader h = (RawPacketHeader) f.records().get(0);
            assertEquals(SflowCodec.HEADER_ETHERNET, h.protocol());
            assertEquals(128, h.header().length, "the first 128 bytes");
            assertEquals(4, h.stripped());
            PortCounters in = r.lab.sw.counters(1);
            assertEquals(in.rxBytes / in.rxFrames + 4, h.frameLength(), "the frame on the wire, FCS included");
        }
        FlowSample last = flows.get(flows.size() - 1);
        assertTrue(last.samplePool() <= r.frames && last.samplePool() > r.frames - 2 * 256, "pool " + last.samplePool());
        SflowCounters c = r.lab.sw.sflow().counters();
        assertEquals(flows.size(), c.ports().get(1).ingressSamples());
        assertEquals(r.frames, c.ports().get(1).pool(), "every frame Ethernet4 took in went by its sampler");
        assertEquals(0, c.ports().get(2).pool(), "Ethernet8 is sampled at 100G's 1-in-100,000 and saw nothing");
        assertEquals(100_000, c.ports().get(2).rate());
        for (byte[] d : r.rec.datagrams) {
            assertTrue(d.length <= SflowAgent.MAX_DATAGRAM_BYTES, "datagram of " + d.length);
        }
        SflowDatagram first = new SflowDecoder().decode(r.rec.datagrams.get(0));
        assertEquals("10.1.0.1", first.agent().getHostAddress(), "Loopback0's address");
    }

    @Test
    void oneSeedOneSequenceOfSamples() {
        Run a = run(config("rx", false), 7, 5_000);
        Run b = run(config("rx", false), 7, 5_000);
        Run c = run(config("rx", false), 8, 5_000);
        assertEquals(a.rec.datagrams.size(), b.rec.datagrams.size());
        for (int i = 0; i < a.rec.datagrams.size(); i++) {
            assertArrayEquals(a.rec.datagrams.get(i), b.rec.datagrams.get(i));
        }
        assertNotEquals(pools(a), pools(c), "another seed, other packets");
    }

    private static List<Long> pools(Run r) {
        return r.rec.samples("c1").stream().filter(s -> s instanceof FlowSample).map(s -> ((FlowSample) s).samplePool())
            .toList();
    }

    @Test
    void egressSamplingOnTxAndEveryDatagramToEachCollector() {
        Run r = run(config("tx", true), 3, 20_000);
        List<FlowSample> out = r.rec.samples("c1").stream().filter(s -> s instanceof FlowSample)
            .map(s -> (FlowSample) s).filter(f -> f.output() == 1).toList();
        assertTrue(out.size() > 25 && out.size() < 55, "egress samples on Ethernet0 at 1-in-512: " + out.size());
        for (FlowSample f : out) {
            assertEquals(1, f.sourceId());
            assertEquals(512, f.samplingRate());
        }
        assertEquals(r.rec.samples("c1"), r.rec.samples("c2"), "the same datagrams to both collectors");
        assertFalse(r.rec.samples("c1").stream().anyMatch(s -> s instanceof FlowSample f && f.sourceId() == 1
            && f.input() == 1), "rx is not sampled on a tx port");
    }

    @Test
    void counterSamplesSayWhatTheSwitchCounted() {
        Run r = run(config("rx", false), 7, 10_000);
        List<CounterSample> polls = r.rec.samples("c1").stream().filter(s -> s instanceof CounterSample)
            .map(s -> (CounterSample) s).toList();
        // 3 ports every 5 s, for the run's 12+ s
        assertTrue(polls.size() >= 6, "polls: " + polls.size());
        for (int port = 0; port < 3; port++) {
            long ifIndex = 4L * port + 1;
            CounterSample last = null;
            long seq = 0;
            for (CounterSample s : polls) {
                if (s.sourceId() == ifIndex) {
                    assertEquals(++seq, s.sequence());
                    last = s;
                }
            }
            assertNotNull(last, "port " + port + " polled");
            GenericInterfaceCounters g = (GenericInterfaceCounters) last.records().get(0);
            PortCounters c = r.lab.sw.counters(port);
            assertEquals(ifIndex, g.ifIndex());
            assertEquals(6, g.ifType());
            assertEquals(100_000_000_000L, g.ifSpeed());
            assertEquals(3, g.ifStatus(), "admin and oper up");
            assertEquals(c.rxBytes, g.ifInOctets());
            assertEquals(c.rxFrames, g.ifInUcastPkts());
            assertEquals(c.txBytes, g.ifOutOctets());
            assertEquals(c.txFrames, g.ifOutUcastPkts());
            assertEquals(SflowCodec.UNKNOWN, g.ifInMulticastPkts());
            assertEquals(0, g.ifInDiscards());
            assertEquals(0, ((EthernetCounters) last.records().get(1)).frameTooLongs());
        }
        assertTrue(r.lab.sw.counters(1).rxFrames >= 10_000, "the counters are the traffic's");
    }
}
