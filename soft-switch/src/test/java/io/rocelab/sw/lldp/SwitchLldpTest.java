package io.rocelab.sw.lldp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.lldp.LldpId;
import io.rocelab.codec.lldp.Lldpdu;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.lldp.LldpAgent;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two soft switches cabled port to port learn each other by LLDP as two SONiC switches do (system
 * name the hostname, chassis the switch MAC, port ID the alias, subtype local); an LLDPDU is the
 * switch's own and never leaves by another port; the neighbour goes when the cable is cut; the
 * views print as lldpctl and lldpshow do; FEATURE|lldp disabled and the PORT/MGMT_INTERFACE keys
 * are read from config_db.
 */
class SwitchLldpTest {
    private static final long S = 1_000_000_000L;
    private static final long MAC_A = MacAddress.parse("02:00:00:00:0a:fe");
    private static final long MAC_B = MacAddress.parse("02:00:00:00:0b:fe");

    private static SwitchConfig config(String name, long mac) {
        return new SwitchConfigBuilder().hostname(name).mac(mac).port("Ethernet0", 100_000, 9100)
            .port("Ethernet4", 100_000, 9100).build();
    }

    @Test
    void twoSwitchesSeeEachOtherAndNeverForwardAnLldpdu() {
        VirtualTimeScheduler time = new VirtualTimeScheduler();
        SoftSwitch a = new SoftSwitch(config("leaf0", MAC_A), time, ByteBufAllocator.DEFAULT, 1);
        SoftSwitch b = new SoftSwitch(config("spine0", MAC_B), time, ByteBufAllocator.DEFAULT, 2);
        InProcessLink ab = InProcessLink.builder().name("ab").rateBitsPerSecond(100_000_000_000L)
            .propagationDelayNanos(25).seed(1).build(time);
        InProcessLink probe = InProcessLink.builder().name("probe").rateBitsPerSecond(100_000_000_000L)
            .propagationDelayNanos(25).seed(2).build(time);
        a.attach("Ethernet0", ab.portA());
        b.attach("Ethernet0", ab.portB());
        a.attach("Ethernet4", probe.portA());
        List<Long> sources = new ArrayList<>();
        probe.portB().setReceiver((p, f) -> {
            if (Lldpdu.isLldp(f)) {
                sources.add(MacAddress.get(f, f.readerIndex() + 6));
            }
            f.release();
        });
        a.startLldp(new LldpSettings(true, Map.of("Ethernet0", "etp1"), Map.of("Ethernet0", "spine0:etp1"), "10.1.0.32",
            "Mellanox-SN2700"));
        b.startLldp(new LldpSettings(true, Map.of("Ethernet0", "etp1"), Map.of(), null, null));
        time.runFor(10 * S);

        Lldpdu fromB = a.lldp().agent(0).neighbor().pdu();
        assertEquals("spine0", fromB.systemName());
        assertEquals(LldpId.chassisMac(MAC_B), fromB.chassisId());
        assertEquals(new LldpId(LldpId.PORT_LOCAL, "etp1"), fromB.portId());
        assertEquals("Ethernet0", fromB.portDescription(), "no description: the port's name");
        assertEquals(LldpAgent.TTL_SECONDS, fromB.ttl());
        Lldpdu fromA = b.lldp().agent(0).neighbor().pdu();
        assertEquals("leaf0", fromA.systemName());
        assertEquals("spine0:etp1", fromA.portDescription());
        assertEquals("10.1.0.32", fromA.managementAddress().address());
        assertTrue(fromA.systemDescription().contains("HwSku: Mellanox-SN2700"), fromA.systemDescription());
        assertEquals(new Lldpdu.Capabilities(0x14, 0x10), fromA.capabilities(), "bridge and router, router on");

        assertTrue(sources.size() >= 4, "A's own LLDPDUs on Ethernet4: " + sources.size());
        assertTrue(sources.stream().allMatch(s -> s == MAC_A), "never B's: LLDP is not forwarded");
        assertNull(a.lldp().agent(1).neighbor(), "no LLDP agent behind the probe");
        assertEquals(0, a.countersSnapshot().ports().get(1).txFrames - sources.size(),
            "Ethernet4 sent nothing but A's LLDPDUs");

        String table = LldpViews.table(List.of(new LldpViews.Port("Ethernet0", a.lldp().agent(0)),
            new LldpViews.Port("Ethernet4", a.lldp().agent(1))));
        assertEquals("Capability codes: (R) Router, (B) Bridge, (O) Other\n"
            + "LocalPort    RemoteDevice    RemotePortID    Capability    RemotePortDescr  \n"
            + "-----------  --------------  --------------  ------------  -----------------\n"
            + "Ethernet0    spine0          etp1            R             Ethernet0        \n"
            + "--------------------------------------------------\n"
            + "Total entries displayed:  1\n", table);
        String neighbors = LldpViews.neighbors(List.of(new LldpViews.Port("Ethernet0", b.lldp().agent(0))),
            time.nanoTime());
        String rule = "-".repeat(79);
        assertEquals(rule + "\nLLDP neighbors:\n" + rule + "\n"
            + "Interface:    Ethernet0, via: LLDP, RID: 1, Time: 0 day, 00:00:09\n"
            + "  Chassis:     \n"
            + "    ChassisID:    mac 02:00:00:00:0a:fe\n"
            + "    SysName:      leaf0\n"
            + "    SysDescr:     SONiC Software Version: SONiC.rocelab - HwSku: Mellanox-SN2700 - Distribution: rocelab"
            + " - Kernel: none\n"
            + "    MgmtIP:       10.1.0.32\n"
            + "    MgmtIface:    0\n"
            + "    Capability:   Bridge, off\n"
            + "    Capability:   Router, on\n"
            + "  Port:        \n"
            + "    PortID:       local etp1\n"
            + "    PortDescr:    spine0:etp1\n"
            + "    TTL:          121\n"
            // the port's DCBX, from its configuration (SwitchDcbx): no PFC on it, ETS from its eight DWRR queues
            + "  DCBX:        \n"
            + "    PFC:          willing no, cap 8, enabled none\n"
            + "    ETS:          willing no, max TCs 8, prio2tc 0,1,2,3,4,5,6,7, tcbw 13,13,13,13,12,12,12,12, tsa"
            + " ets,ets,ets,ets,ets,ets,ets,ets\n"
            + "    ETS-Reco:     prio2tc 0,1,2,3,4,5,6,7, tcbw 13,13,13,13,12,12,12,12, tsa ets,ets,ets,ets,ets,ets,ets,"
            + "ets\n"
            + rule + "\n", neighbors);
        String stats = LldpViews.statistics(List.of(new LldpViews.Port("Ethernet0", a.lldp().agent(0))));
        assertTrue(stats.contains("Interface:    Ethernet0\n  Transmitted:  " + a.lldp().agent(0).framesOut() + "\n"),
            stats);

        // the cable cut: the neighbour goes at once
        ab.setUp(false);
        time.runFor(S);
        assertNull(a.lldp().agent(0).neighbor());
        assertNull(b.lldp().agent(0).neighbor());
        // back, then B stops: its shutdown LLDPDU removes it from A at once
        ab.setUp(true);
        time.runFor(5 * S);
        assertEquals("spine0", a.lldp().agent(0).neighbor().pdu().systemName());
        b.lldp().shutdown();
        time.runFor(S);
        assertNull(a.lldp().agent(0).neighbor());
        assertEquals(0, a.lldp().agent(0).ageouts());
        ab.setUp(false);
        probe.setUp(false);
        time.runFor(S);
    }

    @Test
    void aNeighboursDcbxTlvsArePrintedUnderItsPort() {
        VirtualTimeScheduler time = new VirtualTimeScheduler();
        LldpAgent agent = new LldpAgent(time, ByteBufAllocator.DEFAULT, MAC_A,
            () -> new Lldpdu(LldpId.chassisMac(MAC_A), LldpId.portLocal("etp1"), 121, null, "leaf0", null, null, null,
                null), io.netty.buffer.ByteBuf::release);
        agent.linkStateChanged(true);
        io.rocelab.codec.lldp.Dcbx dcbx = new io.rocelab.codec.lldp.Dcbx(
            new io.rocelab.codec.lldp.DcbxEts(true, false, 8, new int[] {0, 0, 0, 3, 0, 0, 0, 0},
                new int[] {50, 0, 0, 50, 0, 0, 0, 0}, new int[] {2, 0, 0, 2, 0, 0, 0, 0}),
            null, new io.rocelab.codec.lldp.DcbxPfc(true, false, 8, 0x08),
            List.of(io.rocelab.codec.lldp.DcbxApp.rocev2(3), io.rocelab.codec.lldp.DcbxApp.dscp(26, 3)));
        Lldpdu host = new Lldpdu(LldpId.chassisMac(MAC_B), LldpId.portMac(MAC_B), 121, "eth0", "h0", null,
            new Lldpdu.Capabilities(0x80, 0x80), null, dcbx);
        io.netty.buffer.ByteBuf f = host.frame(ByteBufAllocator.DEFAULT, MAC_B);
        agent.receive(f);
        f.release();
        String text = LldpViews.neighbors(List.of(new LldpViews.Port("Ethernet0", agent)), time.nanoTime());
        assertTrue(text.contains("    Capability:   Station, on\n  Port:        \n    PortID:       mac 02:00:00:00:0b:fe\n"),
            text);
        assertTrue(text.contains("  DCBX:        \n"
            + "    PFC:          willing yes, cap 8, enabled 3\n"
            + "    ETS:          willing yes, max TCs 8, prio2tc 0,0,0,3,0,0,0,0, tcbw 50,0,0,50,0,0,0,0, tsa "
            + "ets,strict,strict,ets,strict,strict,strict,strict\n"
            + "    App:          udp 4791 prio 3, dscp 26 prio 3\n"), text);
        String table = LldpViews.table(List.of(new LldpViews.Port("Ethernet0", agent)));
        assertTrue(table.contains("Ethernet0    h0              02:00:00:00:0b:fe  O             eth0"), table);
    }

    @Test
    void configDbSaysWhatLldpSays() throws Exception {
        String json = """
            {"DEVICE_METADATA": {"localhost": {"hostname": "t1", "hwsku": "ACS-MSN2700"}},
             "FEATURE": {"lldp": {"state": "disabled", "auto_restart": "enabled"}},
             "MGMT_INTERFACE": {"eth0|fc00:2::32/64": {}, "eth0|10.3.147.47/23": {"gwaddr": "10.3.146.1"}},
             "PORT": {"Ethernet0": {"alias": "etp1", "description": "ARISTA01T2:Ethernet1"},
                      "Ethernet4": {"alias": "etp2"}, "Ethernet8": {}}}
            """;
        LldpSettings s = LldpTables.read(new ObjectMapper().readTree(json));
        assertEquals(false, s.enabled());
        assertEquals(Map.of("Ethernet0", "etp1", "Ethernet4", "etp2"), s.aliases());
        assertEquals(Map.of("Ethernet0", "ARISTA01T2:Ethernet1"), s.descriptions());
        assertEquals("10.3.147.47", s.managementIpv4());
        assertEquals("ACS-MSN2700", s.hwsku());
        assertEquals(true, LldpTables.read(new ObjectMapper().readTree("{}")).enabled(), "on unless disabled");
    }
}
