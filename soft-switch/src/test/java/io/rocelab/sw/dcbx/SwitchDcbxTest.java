package io.rocelab.sw.dcbx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.codec.lldp.DcbxApp;
import io.rocelab.codec.lldp.DcbxEts;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a switch port advertises in DCBX, from real SONiC T1 configurations (labs/sonic: an SN2700
 * and a 7060CX with SONiC's AZURE maps, PFC on 3 and 4, DWRR 14/15) and from small ones.
 */
class SwitchDcbxTest {
    private static final Path SONIC = Path.of(System.getProperty("rocelab.root", "..")).resolve("labs/sonic");

    private static PortConfig ethernet0(String file) throws IOException {
        SwitchConfig c = ConfigLoader.read(SONIC.resolve(file)).config();
        return c.ports().get(0);
    }

    @Test
    void aSonicT1PortAdvertisesPfcOnThreeAndFourEtsFromItsSchedulersAndTheLosslessDscps() throws IOException {
        for (String file : List.of("mellanox-sn2700-t1.json", "arista-7060cx-32s-t1.json")) {
            Dcbx d = SwitchDcbx.advertised(ethernet0(file));
            assertFalse(d.pfc().willing(), file);
            assertEquals(0x18, d.pfc().enableMask(), "pfc_enable 3,4");
            DcbxEts ets = d.etsConfiguration();
            assertFalse(ets.willing());
            assertEquals(ets, d.etsRecommendation(), "it recommends what it runs");
            assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, ets.priorityToTc(), "AZURE tc_to_queue_map");
            // DWRR 14 on queues 0-2, 5, 6, 15 on 3 and 4, queue 7 unset (weight 1): 101 in all
            assertArrayEquals(new int[] {14, 14, 14, 15, 14, 14, 14, 1}, ets.tcBandwidth(), Arrays.toString(ets.tcBandwidth()));
            assertEquals(100, Arrays.stream(ets.tcBandwidth()).sum());
            assertArrayEquals(new int[] {2, 2, 2, 2, 2, 2, 2, 2}, ets.tsa(), "all DWRR: ETS");
            assertEquals(List.of(DcbxApp.rocev2(3), new DcbxApp(3, DcbxApp.SELECTOR_ETHERTYPE, 0x8915),
                DcbxApp.dscp(3, 3), DcbxApp.dscp(4, 4)), d.applications(), "AZURE: DSCP 3 at 3, DSCP 4 at 4");
        }
    }

    @Test
    void strictQueuesAreStrictAndTheSharesAreOfTheDwrrOnes() {
        ConfigBuilder b = new ConfigBuilder(2, 100).scheduler(3, "DWRR", 60).scheduler(6, "STRICT", 1);
        for (int q : new int[] {0, 1, 2, 4, 5, 7}) {
            b.scheduler(q, "DWRR", 40);
        }
        PortConfig p = b.build().ports().get(0);
        DcbxEts ets = SwitchDcbx.advertised(p).etsConfiguration();
        assertEquals(DcbxEts.TSA_STRICT, ets.tsa()[6]);
        assertEquals(0, ets.tcBandwidth()[6]);
        assertEquals(100, Arrays.stream(ets.tcBandwidth()).sum());
        assertEquals(60 * 100 / (60 + 6 * 40), ets.tcBandwidth()[3], Arrays.toString(ets.tcBandwidth()));
    }

    @Test
    void theTestkitsPortAdvertisesDscp26AtThree() {
        Dcbx d = SwitchDcbx.advertised(new ConfigBuilder(2, 100).build().ports().get(0));
        assertEquals(0x08, d.pfc().enableMask());
        assertEquals(List.of(DcbxApp.rocev2(3), new DcbxApp(3, DcbxApp.SELECTOR_ETHERTYPE, 0x8915),
            DcbxApp.dscp(26, 3)), d.applications());
    }
}
