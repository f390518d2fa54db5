package io.rocelab.codec.lldp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PcapWriter;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wireshark reads the LLDPDUs rocelab writes as LLDP, every TLV under Wireshark's own field names
 * (the DCBX TLVs as IEEE 802.1Qaz's, {@code lldp.dcbx.ieee.*}), with nothing malformed. Needs
 * tshark: skipped loudly without it, failed under CI=true.
 */
class LldpTsharkTest {
    @TempDir
    Path dir;

    @Test
    void tsharkReadsEveryTlvWeWriteUnderItsOwnNames() throws Exception {
        String tshark = tshark();
        Path file = dir.resolve("lldp.pcap");
        Lldpdu pdu = LldpduTest.full();
        try (PcapWriter w = PcapWriter.create(file)) {
            w.addInterface("Ethernet0", LinkType.ETHERNET, 0, 0, null);
            ByteBuf f = pdu.frame(ByteBufAllocator.DEFAULT, LldpduTest.MAC);
            w.write(0, 1_000_000_000L, f, null);
            f.release();
        }
        String[] fields = {"eth.dst", "eth.type", "lldp.chassis.subtype", "lldp.chassis.id.mac", "lldp.port.subtype",
            "lldp.port.id", "lldp.time_to_live", "lldp.port.desc", "lldp.tlv.system.name", "lldp.tlv.system.desc",
            "lldp.tlv.system_cap", "lldp.tlv.enable_system_cap", "lldp.mgn.addr.ip4",
            "lldp.ieee.802_1.subtype", "lldp.dcbx.ieee.willing", "lldp.dcbx.ieee.ets.maxtcs",
            "lldp.dcbx.ieee.ets.tsa0", "lldp.dcbx.ieee.ets.tsa3", "lldp.dcbx.ieee.ets.tsa1",
            "lldp.dcbx.ieee.pfc.numtcs", "lldp.dcbx.ieee.app.prio", "lldp.dcbx.iee.app.sf",
            "lldp.dcbx.feature.app.proto", "lldp.dcbx.feature.pg.pgid_prio3", "lldp.dcbx.feature.pg.per3",
            "lldp.dcbx.feature.pfc.prio3", "lldp.dcbx.feature.pfc.prio4", "lldp.dcbx.feature.pfc.prio0",
            "_ws.malformed", "_ws.expert.severity"};
        List<String> cmd = new ArrayList<>(List.of(tshark, "-r", file.toString(), "-T", "fields", "-E",
            "separator=;", "-E", "aggregator=,"));
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        List<String> out = run(cmd);
        assertEquals(1, out.size(), String.join("\n", out));
        String[] v = normalised(out.get(0).split(";", -1));
        assertEquals(fields.length, v.length, out.get(0));
        int i = 0;
        assertEquals("01:80:c2:00:00:0e", v[i++]);
        assertEquals("35020", v[i++], "0x88CC");
        assertEquals("4", v[i++]);
        assertEquals("02:00:00:00:aa:01", v[i++]);
        assertEquals("7", v[i++]);
        assertEquals("etp1", v[i++]);
        assertEquals("121", v[i++]);
        assertEquals("ARISTA01T1:Ethernet1", v[i++]);
        assertEquals("leaf0", v[i++]);
        assertEquals("SONiC Software Version: rocelab", v[i++]);
        assertEquals("20", v[i++], "bridge and router");
        assertEquals("16", v[i++], "router enabled");
        assertEquals("10.0.0.1", v[i++]);
        assertEquals("9,10,11,12", v[i++], "ETS configuration, ETS recommendation, PFC configuration, application priority");
        assertEquals("0,0", v[i++], "the switch is not willing (ETS, PFC)");
        assertEquals("0", v[i++], "8 TCs, sent as 0");
        assertEquals("2,2", v[i++], "TC 0's TSA is ETS, in both ETS TLVs");
        assertEquals("2,2", v[i++], "TC 3's TSA");
        assertEquals("0,2", v[i++], "TC 1: strict in the configuration, ETS in the recommendation");
        assertEquals("8", v[i++], "PFC capability");
        assertEquals("3,3,3", v[i++]);
        assertEquals("3,5,1", v[i++], "UDP port, DSCP, Ethertype");
        assertEquals("4791,26,35093", v[i++]);
        assertEquals("3,3", v[i++], "priority 3 in TC 3 (Wireshark shares CEE's PGID field for 802.1Qaz's TC)");
        assertEquals("50,40", v[i++], "TC 3's bandwidth, configuration and recommendation");
        assertEquals("1", v[i++], "PFC on priority 3");
        assertEquals("1", v[i++], "PFC on priority 4");
        assertEquals("0", v[i++], "no PFC on priority 0");
        assertEquals("", v[i++], "not malformed");
        assertEquals("", v[i], "no expert warning");
    }

    /** Numbers as decimals (Wireshark prints some in hex), booleans as 1 and 0 (older tsharks print True/False). */
    private static String[] normalised(String[] values) {
        String[] out = new String[values.length];
        for (int k = 0; k < values.length; k++) {
            List<String> parts = new ArrayList<>();
            for (String part : values[k].split(",", -1)) {
                String p = part.equals("True") ? "1" : part.equals("False") ? "0" : part;
                if (p.matches("0x[0-9a-fA-F]+") && !values[k].contains(":")) {
                    p = String.valueOf(Long.decode(p));
                }
                parts.add(p);
            }
            out[k] = String.join(",", parts);
        }
        return out;
    }

    static String tshark() {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(entry.isEmpty() ? "." : entry, "tshark");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        String reason = "tshark not installed: LLDP frames NOT checked against Wireshark (apt-get install tshark)";
        if ("true".equals(System.getenv("CI"))) {
            fail(reason);
        }
        System.out.println("SKIPPED LldpTsharkTest: " + reason);
        System.err.println("SKIPPED LldpTsharkTest: " + reason);
        Assumptions.assumeTrue(false, reason);
        return null;
    }

    static List<String> run(List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("LC_ALL", "C.UTF-8");
        Path err = Files.createTempFile("rocelab-tshark", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(String.join(" ", command) + " failed: " + Files.readString(err));
        }
        Files.deleteIfExists(err);
        return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }
}
