package io.rocelab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.HeadroomModel;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.qos.QosProfile;
import io.rocelab.topology.qos.QosProfiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The QoS profiles, named once for a fabric, written into every switch. */
class QosProfileTest {
    static final Path LEAF_JSON = Path.of(System.getProperty("rocelab.root", "..")).resolve(
        "lab/src/main/resources/demo/leaf.json");

    /** The demo's host-a -- leaf -- host-b with the leaf's tables from the builder and the lossless profile. */
    static SwitchConfig demoLeafFromTheModel() {
        SwitchConfigBuilder leaf = new SwitchConfigBuilder().hostname("leaf").mac(0x02_00_00_00_00_feL)
            .port("Ethernet0", 100_000, 9100).port("Ethernet4", 100_000, 9100);
        Topology t = Topology.builder().qos("lossless").switchNode("leaf", leaf)
            .host(Host.builder("host-a").mac("02:00:00:00:0a:01").ipv4("10.0.0.1").build())
            .host(Host.builder("host-b").mac("02:00:00:00:0b:01").ipv4("10.0.0.2").build())
            .link(Link.between("host-a", "leaf:Ethernet0").cableMeters(5).build())
            .link(Link.between("host-b", "leaf:Ethernet4").cableMeters(5).build()).build();
        return t.switchNode("leaf").config();
    }

    @Test
    void theLosslessProfileIsTheDemoLeafsQos() throws Exception {
        SwitchConfig fromJson = ConfigLoader.load(LEAF_JSON);
        SwitchConfig fromModel = demoLeafFromTheModel();
        assertEquals(fromJson, fromModel, "the builder with the lossless profile and the loader with leaf.json");
        PortConfig p = fromModel.ports().get(1);
        assertEquals(3, p.dscpToTc()[26]);
        assertEquals(6, p.dscpToTc()[48], "CNPs in TC 6");
        assertTrue(p.pfcEnabled(3));
        assertTrue(p.queues()[3].wred().ecnGreen(), "ECN on queue 3");
        assertTrue(p.queues()[6].scheduler().strict(), "CNPs served first");
        assertEquals(200_000_000L, p.pfcWd().detectionNanos());
    }

    /** A switch read from JSON as tables gets the fabric's routes like a generated one. */
    @Test
    void theDemoLeafReadFromJsonGetsItsRoutesFilledIn() throws Exception {
        SwitchConfigBuilder leaf = ConfigLoader.tables(java.nio.file.Files.readString(LEAF_JSON));
        Topology t = Topology.builder().routes(new io.rocelab.topology.route.EcmpRoutes()).switchNode("leaf", leaf)
            .host(Host.builder("host-a").mac("02:00:00:00:0a:01").ipv4("10.0.0.1").build())
            .host(Host.builder("host-b").mac("02:00:00:00:0b:01").ipv4("10.0.0.2").build())
            .link(Link.between("host-a", "leaf:Ethernet0").build())
            .link(Link.between("host-b", "leaf:Ethernet4").build()).build();
        SwitchConfig c = t.switchNode("leaf").config();
        assertEquals(java.util.List.of("10.0.0.1/32 -> Ethernet0", "10.0.0.2/32 -> Ethernet4"), LeafSpineTest.routes(c));
        assertEquals(ConfigLoader.load(LEAF_JSON).ports(), c.ports(), "its QoS as the file has it");
    }

    @Test
    void lossyHasTheSameClassesWithoutPfc() {
        SwitchConfig c = QosProfiles.LOSSY.applyTo(new SwitchConfigBuilder().port("Ethernet0", 100_000, 9100)).build();
        PortConfig p = c.ports().get(0);
        assertEquals(3, p.dscpToTc()[26]);
        assertEquals(0, p.pfcEnableMask(), "no PFC");
        assertFalse(p.pgProfiles()[3].lossless(), "the RoCE PG drops when its share is full");
        assertNull(p.pfcWd(), "no lossless queue to watch");
        assertTrue(p.queues()[3].wred().ecnGreen(), "ECN still marks");
    }

    @Test
    void losslessIsAnSn2700WithEachPortsProfileForItsSpeedAndCable() {
        LeafSpine ls = LeafSpine.builder().leaves(1).spines(1).hostsPerLeaf(15).cableMeters(40).build();
        SwitchConfig leaf = ls.topology().switchNode("leaf0").config();
        assertEquals(QosProfiles.SN2700_POOL, leaf.pools().get(QosProfile.POOL).size(), "16 ports: one SN2700's pool");
        BufferProfile pg = leaf.ports().get(0).pgProfiles()[3];
        // buffermgrd's profile for 100G over 40 m on Spectrum-1: the IEEE response included
        assertEquals("pg_lossless_100000_40m_profile", pg.name());
        assertEquals(List.of(99_328L, 18_432L, 80_896L, 0), List.of(pg.size(), pg.xon(), pg.xoff(), pg.dynamicTh()));
        assertTrue(pg.xoff() > HeadroomModel.SN2700_LOOKUP.compute(100_000_000_000L, 40, 9100).xoff() + 25_216,
            "more than the static lookup's 38912 by the 25216 bytes of the peer's response");
        assertEquals(1_048_576, leaf.ports().get(0).queues()[3].wred().green().minThreshold(), "AZURE_LOSSLESS");
        new SoftSwitch(leaf, new VirtualTimeScheduler(), ByteBufAllocator.DEFAULT, 1); // the MMU takes it

        LeafSpine big = LeafSpine.builder().leaves(1).spines(1).hostsPerLeaf(40).build();
        assertEquals(2 * QosProfiles.SN2700_POOL,
            big.topology().switchNode("leaf0").config().pools().get(QosProfile.POOL).size(), "41 ports: two pools' worth");
    }

    @Test
    void aLabCanGiveItsOwnHeadroomOrAskForADynamicOne() {
        SwitchConfig own = QosProfiles.LOSSLESS.withLosslessPg(19_456, 100_000, -2, false)
            .applyTo(new SwitchConfigBuilder().port("Ethernet0", 100_000, 9100)).build();
        BufferProfile p = own.ports().get(0).pgProfiles()[3];
        assertEquals(List.of(119_456L, 19_456L, 100_000L, -2), List.of(p.size(), p.xon(), p.xoff(), p.dynamicTh()));
        SwitchConfig dynamic = QosProfiles.LOSSLESS.withLosslessPg(0, -1, 0, true)
            .applyTo(new SwitchConfigBuilder().port("Ethernet0", 100_000, 9100).cableLength("Ethernet0", 300)).build();
        BufferProfile d = dynamic.ports().get(0).pgProfiles()[3];
        assertEquals(HeadroomModel.SPECTRUM_DYNAMIC.compute(100_000_000_000L, 300, 9100).xoff(), d.xoff(),
            "worked out by the switch from its cable");
        assertEquals("pg_lossless_100000_300m_profile", d.name());
    }

    @Test
    void aProfileCanBeTunedForAScenario() {
        QosProfile q = QosProfiles.LOSSLESS.withWatchdog(null).withEcn(5_000, 200_000, 0.01).withWeights(50, 50);
        SwitchConfig c = q.applyTo(new SwitchConfigBuilder().port("Ethernet0", 100_000, 9100)).build();
        PortConfig p = c.ports().get(0);
        assertNull(p.pfcWd());
        assertEquals(5_000, p.queues()[3].wred().green().minThreshold());
        assertEquals(0.01, p.queues()[3].wred().green().maxProbability());
        assertEquals(50, p.queues()[0].scheduler().weight());
        assertEquals(26 << 2 | 2, q.roceTrafficClass(), "DSCP 26 with ECT(0)");
    }
}
