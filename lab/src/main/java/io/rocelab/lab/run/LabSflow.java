package io.rocelab.lab.run;

import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PcapWriter;
import io.rocelab.lab.labfile.Mode;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.sflow.PcapSflowSink;
import io.rocelab.sw.sflow.SflowSink;
import io.rocelab.sw.sflow.UdpSflowSink;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.SwitchNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * sFlow on a lab's switches whose config_db runs it ({@code SFLOW|global admin_state up} and a
 * {@code SFLOW_COLLECTOR}, from a switch's {@code tables:} or its own config_db). In virtual time the
 * datagrams the switches would send go into one classic pcap beside the run's capture,
 * {@code [variant-]sflow.pcap}, as UDP frames from each switch's agent address to its collectors
 * (tshark decodes them: {@code tshark -r sflow.pcap -Y sflow}); nothing leaves the process. Live
 * and netns, real time: UDP datagrams to the collectors from a socket of the host
 * ({@link UdpSflowSink}). Closing sends what the agents hold and closes the file or socket.
 */
public final class LabSflow implements AutoCloseable {
    private final RunClock clock;
    private final Fabric fabric;
    private final List<String> switches;
    private final PcapWriter pcap;
    private final UdpSflowSink udp;

    private LabSflow(RunClock clock, Fabric fabric, List<String> switches, PcapWriter pcap, UdpSflowSink udp) {
        this.clock = clock;
        this.fabric = fabric;
        this.switches = switches;
        this.pcap = pcap;
        this.udp = udp;
    }

    /** @return the switches of the run whose configuration runs sFlow */
    static List<String> switches(RunSpec run) {
        List<String> out = new ArrayList<>();
        for (SwitchNode s : run.topology().switches()) {
            if (s.config().sflow().runs()) {
                out.add(s.name());
            }
        }
        return out;
    }

    /** @return whether a switch of the run runs sFlow (its datagrams then need an output directory) */
    public static boolean wanted(RunSpec run) {
        return !switches(run).isEmpty();
    }

    /** @return where a run's sFlow capture goes, beside its capture file */
    static Path file(Path captureFile) {
        String name = captureFile.getFileName().toString();
        return captureFile.resolveSibling(name.replace("capture.pcapng", "sflow.pcap"));
    }

    /**
     * Starts sFlow on the run's switches that have it.
     *
     * @param captureFile the run's capture file (the sFlow pcap goes beside it); null: virtual-time
     *                    datagrams are not kept
     */
    static AutoCloseable start(RunClock clock, Fabric fabric, RunSpec run, Mode mode, Path captureFile) {
        List<String> names = switches(run);
        if (names.isEmpty() || mode == Mode.VIRTUAL && captureFile == null) {
            return () -> { };
        }
        PcapWriter pcap = null;
        UdpSflowSink udp = null;
        try {
            if (mode == Mode.VIRTUAL) {
                pcap = PcapWriter.create(file(captureFile));
                pcap.addInterface("sflow", LinkType.ETHERNET, 0, 0, "sFlow datagrams the switches send");
            } else {
                udp = new UdpSflowSink();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file(captureFile), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted opening the sFlow socket", e);
        }
        PcapWriter writer = pcap;
        UdpSflowSink socket = udp;
        clock.onFabric(fabric, () -> {
            for (String name : names) {
                SoftSwitch sw = fabric.softSwitch(name);
                SflowSink sink = writer != null ? new PcapSflowSink(writer, 0, sw.config().routerMac(),
                    sw.config().sflow().agentAddress(), 0) : socket;
                sw.startSflow(sink);
            }
            return null;
        });
        return new LabSflow(clock, fabric, names, pcap, udp);
    }

    @Override
    public void close() throws IOException {
        try {
            clock.onFabric(fabric, () -> {
                for (String name : switches) {
                    fabric.softSwitch(name).sflow().stop();
                }
                return null;
            });
        } finally {
            if (pcap != null) {
                pcap.close();
            }
            if (udp != null) {
                udp.close();
            }
        }
    }
}
