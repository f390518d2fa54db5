package io.rocelab.nic.dcb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.codec.lldp.DcbxApp;
import io.rocelab.codec.lldp.DcbxEts;
import io.rocelab.codec.lldp.DcbxPfc;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DCBX at the NIC (IEEE 802.1Qaz-2011 D.2): a willing NIC takes a not-willing switch port's PFC
 * enable vector, ETS recommendation and application priorities, gives them back when the switch is
 * gone, keeps its own against a willing peer or with DCBX off, and advertises what it runs.
 */
class NicDcbTest {
    private static final DcbxEts SWITCH_ETS = new DcbxEts(false, false, 8, new int[] {0, 0, 0, 3, 4, 0, 0, 0},
        new int[] {50, 0, 0, 50, 0, 0, 0, 0}, new int[] {2, 2, 2, 2, 0, 2, 2, 2});

    /** What a SONiC T1 port trusting DSCP advertises: PFC on 3 and 4, DSCP 26 and 3 at 3, DSCP 4 at 4, RoCE at 3. */
    private static Dcbx sonicPort(boolean willing) {
        return new Dcbx(new DcbxEts(willing, false, 8, SWITCH_ETS.priorityToTc(), SWITCH_ETS.tcBandwidth(),
            SWITCH_ETS.tsa()), SWITCH_ETS, new DcbxPfc(willing, false, 8, 0x18),
            List.of(DcbxApp.rocev2(3), new DcbxApp(3, DcbxApp.SELECTOR_ETHERTYPE, DcbxApp.ROCEV1_ETHERTYPE),
                DcbxApp.dscp(3, 3), DcbxApp.dscp(4, 4), DcbxApp.dscp(26, 3)));
    }

    private record Change(int port, PortDcb state, boolean adopted) {
    }

    @Test
    void aWillingNicTakesTheSwitchsPfcEtsAndApplicationPrioritiesAndGivesThemBack() {
        List<Change> changes = new ArrayList<>();
        DcbSettings local = DcbSettings.DEFAULTS.withTrust(DcbSettings.Trust.PCP).withPfc(0x10);
        NicDcb dcb = new NicDcb(local, 2, (p, s, a) -> changes.add(new Change(p, s, a)));
        assertEquals(0, dcb.priorityOfUntagged(1, 26), "trusting PCP, an untagged frame is priority 0");
        assertFalse(dcb.pfcEnabled(1, 3));

        dcb.onPeer(1, sonicPort(false));
        PortDcb op = dcb.operational(1);
        assertEquals(0x18, op.settings().pfcEnable(), "the switch's PFC vector");
        assertTrue(dcb.pfcEnabled(1, 3));
        assertArrayEquals(SWITCH_ETS.priorityToTc(), op.settings().ets().priorityToTc(), "its ETS recommendation");
        assertArrayEquals(SWITCH_ETS.tcBandwidth(), op.settings().ets().tcBandwidth());
        assertEquals(DcbSettings.Trust.DSCP, op.settings().trust(), "a DSCP entry makes the NIC trust DSCP (mlx5)");
        assertEquals(3, dcb.priorityOfUntagged(1, 26));
        assertEquals(4, dcb.priorityOfUntagged(1, 4));
        assertEquals(1, dcb.priorityOfUntagged(1, 8), "DSCPs the switch names not keep the NIC's map");
        assertEquals(3, op.rocePriority(), "UDP 4791's entry");
        assertTrue(op.pfcFromPeer() && op.etsFromPeer() && op.appsFromPeer());
        assertEquals(1, dcb.adoptions(1));
        assertEquals(List.of(new Change(1, op, true)), changes);
        assertSame(DcbSettings.Trust.PCP, dcb.operational(2).settings().trust(), "port 2 is not port 1");

        dcb.onPeer(1, sonicPort(false));
        assertEquals(1, changes.size(), "the same advertisement again changes nothing");
        assertEquals(1, dcb.adoptions(1));

        dcb.onPeerGone(1);
        assertEquals(PortDcb.local(local), dcb.operational(1), "back to its own settings");
        assertEquals(0, dcb.priorityOfUntagged(1, 26));
        assertNull(dcb.peer(1));
        assertEquals(2, changes.size());
        assertFalse(changes.get(1).adopted());
    }

    @Test
    void aWillingPeerOrDcbxOffLeavesTheNicOnItsOwnSettings() {
        NicDcb willing = new NicDcb(DcbSettings.DEFAULTS.withPfc(0x10), 1, (p, s, a) -> { });
        willing.onPeer(1, sonicPort(true));
        assertEquals(0x10, willing.pfcEnable(1), "both willing: each keeps its own");
        assertFalse(willing.operational(1).adopted());
        assertEquals(0, willing.adoptions(1));

        NicDcb off = new NicDcb(DcbSettings.DEFAULTS.withPfc(0x10).withDcbx(DcbSettings.DcbxMode.OFF), 1,
            (p, s, a) -> { });
        off.onPeer(1, sonicPort(false));
        assertEquals(0x10, off.pfcEnable(1), "dcbx off: the NIC keeps its own");
        assertSame(Dcbx.NONE, off.advertised(1), "and sends no DCBX TLVs");
    }

    @Test
    void onlyTheTlvsThePeerSendsNotWillingAreTaken() {
        NicDcb dcb = new NicDcb(DcbSettings.DEFAULTS, 1, (p, s, a) -> { });
        dcb.onPeer(1, new Dcbx(null, null, new DcbxPfc(false, false, 8, 0x08), null));
        assertEquals(0x08, dcb.pfcEnable(1));
        assertEquals(DcbSettings.MLX5_DEFAULT_ETS, dcb.operational(1).settings().ets(), "no recommendation: own ETS");
        assertEquals(DcbSettings.Trust.DSCP, dcb.operational(1).settings().trust());
        assertEquals(-1, dcb.operational(1).rocePriority());
        dcb.onPeer(1, Dcbx.NONE);
        assertEquals(DcbSettings.PFC_ALL, dcb.pfcEnable(1), "a partner without DCBX: own settings");
    }

    @Test
    void theNicAdvertisesItsWillingBitAndWhatItRuns() {
        NicDcb dcb = new NicDcb(DcbSettings.DEFAULTS.withPfc(0x10), 1, (p, s, a) -> { });
        Dcbx own = dcb.advertised(1);
        assertTrue(own.pfc().willing());
        assertEquals(0x10, own.pfc().enableMask());
        assertTrue(own.etsConfiguration().willing());
        assertArrayEquals(new int[] {1, 0, 2, 3, 4, 5, 6, 7}, own.etsConfiguration().priorityToTc(), "mlx5's default");
        assertNull(own.etsRecommendation());
        assertNull(own.applications(), "no application priorities of its own");
        dcb.onPeer(1, sonicPort(false));
        Dcbx adopted = dcb.advertised(1);
        assertEquals(0x18, adopted.pfc().enableMask(), "the operational vector, the switch's");
        assertArrayEquals(SWITCH_ETS.priorityToTc(), adopted.etsConfiguration().priorityToTc());
        assertEquals(sonicPort(false).applications(), adopted.applications());
    }

    @Test
    void pfcTakesMlnxQosSpelling() {
        assertEquals(0x08, DcbSettings.parsePfc("0,0,0,1,0,0,0,0"));
        assertEquals(0x18, DcbSettings.parsePfc("0,0,0,1,1,0,0,0"));
        assertEquals("0,0,0,1,1,0,0,0", DcbSettings.pfcText(0x18));
        for (String bad : new String[] {"3", "0,0,0,1", "0,0,0,2,0,0,0,0", "0,0,0,1,0,0,0,0,0", ""}) {
            assertThrows(IllegalArgumentException.class, () -> DcbSettings.parsePfc(bad), bad);
        }
        assertEquals(DcbSettings.Trust.PCP, DcbSettings.Trust.parse("pcp"));
        assertThrows(IllegalArgumentException.class, () -> DcbSettings.Trust.parse("dot1p"));
        assertEquals(DcbSettings.DcbxMode.OFF, DcbSettings.DcbxMode.parse("off"));
        assertThrows(IllegalArgumentException.class, () -> DcbSettings.DcbxMode.parse("on"));
    }
}
