package io.rocelab.sw.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.pfc.PauseResponse;
import org.junit.jupiter.api.Test;

/** SONiC's headroom formula against the SN2700's shipped numbers and today's dynamic model. */
class HeadroomModelTest {
    private static final long G100 = 100_000_000_000L;

    @Test
    void reproducesTheSn2700LookupTable() {
        // device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700/pg_profile_lookup.ini
        assertEquals(new HeadroomModel.Headroom(50_176, 19_456, 30_720), HeadroomModel.SN2700_LOOKUP.compute(G100, 5, 9100));
        assertEquals(new HeadroomModel.Headroom(58_368, 19_456, 38_912), HeadroomModel.SN2700_LOOKUP.compute(G100, 40, 9100));
        assertEquals(30_720, ConfigValidator.requiredHeadroom(G100, 5, 4096), "the validator's minimum is the table's");
    }

    @Test
    void theDynamicModelTakesThePeersResponseFromThePauseQuanta() {
        HeadroomModel.Headroom h = HeadroomModel.SPECTRUM_DYNAMIC.compute(G100, 5, 9100);
        // 394 quanta * 64 B = 25216 B of response instead of 3.8 KiB
        double occupancy = 2.0 * 96 / 97;
        double propagation = 9100 + 2.0 * 5 * 100_000 * 1e9 / 1.98e8 / 8192 + 0.8 * 1024 + 394 * 64;
        long xoff = (long) Math.ceil((1536 + propagation * occupancy) / 1024) * 1024;
        assertEquals(xoff, h.xoff());
        assertEquals(18_432, h.xon());
        assertEquals(h.xon() + h.xoff(), h.size());
        assertTrue(HeadroomModel.SPECTRUM_DYNAMIC.compute(G100, 300, 9100).xoff() > h.xoff() + 60_000,
            "300 m of cable both ways at 100G is some 75 KB more");
        assertEquals(905, PauseResponse.ieeeQuanta(400_000_000_000L));
        assertEquals(118, PauseResponse.ieeeQuanta(40_000_000_000L));
        assertEquals(80, PauseResponse.ieeeQuanta(25_000_000_000L));
        assertEquals("pg_lossless_100000_5m_profile", HeadroomModel.profileName(G100, 5));
        // the default: the dynamic model's at 100G, never below the static lookup's (2 quanta at 1G)
        assertEquals(h, HeadroomModel.sn2700(G100, 5, 9100));
        long g1 = 1_000_000_000L;
        assertTrue(HeadroomModel.SPECTRUM_DYNAMIC.compute(g1, 5, 1500).xoff() < ConfigValidator.requiredHeadroom(g1, 5, 1500));
        assertEquals(ConfigValidator.requiredHeadroom(g1, 5, 1500), HeadroomModel.sn2700(g1, 5, 1500).xoff());
    }
}
