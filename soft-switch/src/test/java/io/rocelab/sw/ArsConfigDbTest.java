package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.LoadedConfig;
import io.rocelab.sw.forward.PathChanges;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Adaptive routing configured as SONiC's Local ARS HLD puts it in config_db ({@code ARS_PROFILE},
 * {@code ARS_OBJECT}, {@code ARS_INTERFACES}), loaded from the JSON text by the switch.
 */
class ArsConfigDbTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UPLINKS = "Ethernet4,Ethernet8,Ethernet12,Ethernet16";
    private static final String MACS = "02:00:00:00:09:01,02:00:00:00:09:02,02:00:00:00:09:03,02:00:00:00:09:04";

    /** Port 0: the source host; ports 1-4: the next hops of 10.9.0.0/16 (and 10.8.0.0/16 over ports 1-2). */
    private static ConfigBuilder fabric() {
        return new ConfigBuilder(5, 100).switchField("ecmp_hash_seed", "11")
            .route("10.9.0.0/16", UPLINKS, MACS)
            .route("10.8.0.0/16", "Ethernet12,Ethernet16", "02:00:00:00:09:03,02:00:00:00:09:04");
    }

    private static ObjectNode tables(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends {@code n} frames of one flow 2 µs apart and returns how many each of ports 1-4 received. */
    private static long[] send(Lab lab, String dst, int dscp, int n) {
        long[] before = new long[5];
        for (int p = 1; p <= 4; p++) {
            before[p] = lab.hosts.get(p).rxFrames;
        }
        HostStub h = lab.hosts.get(0).flow(Lab.hostMac(0), MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostIp(0),
            Ipv4.parse(dst), dscp, 2, 0xC0DE, 1000);
        for (int i = 0; i < n; i++) {
            h.sendOne();
            lab.time.runFor(2_000);
        }
        long[] got = new long[4];
        for (int p = 1; p <= 4; p++) {
            got[p - 1] = lab.hosts.get(p).rxFrames - before[p];
        }
        return got;
    }

    @Test
    void perPacketQualityInGlobalModeSpraysTheLosslessClassOverEveryNextHop() {
        ConfigBuilder b = fabric();
        b.root().setAll(tables("""
            {"ARS_PROFILE": {"ars_profile_default": {"algorithm": "ewma", "ars_nhg_path_selector_mode": "global",
                 "default_ars_object": "spray", "sampling_interval": "16", "past_load_weight": "1",
                 "future_load_weight": "1"}},
             "ARS_OBJECT": {"spray": {"assign_mode": "per_packet_quality"}}}
            """));
        Lab lab = new Lab(b.build());
        long[] roce = send(lab, "10.9.1.1", 26, 400);
        for (long c : roce) {
            assertTrue(c > 40, "every next hop carries the sprayed flow: " + java.util.Arrays.toString(roce));
        }
        assertEquals(400, java.util.Arrays.stream(roce).sum());
        PathChanges changes = lab.sw.forwarding().balancing().changes();
        assertTrue(changes.total() > 200, "most packets left another member than the hash's: " + changes.total());
        long onto = 0;
        for (int p = 1; p <= 4; p++) {
            onto += changes.onto(p);
        }
        assertEquals(changes.total(), onto);
        assertEquals("per-packet", lab.sw.forwarding().balancing().of(
            lab.sw.forwarding().routes().exact(Ipv4.parse("10.9.0.0"), 16)).mode());

        long before = changes.total();
        long[] lossy = send(lab, "10.9.1.1", 0, 100);
        assertEquals(1, java.util.Arrays.stream(lossy).filter(c -> c > 0).count(), "a lossy flow keeps its hash");
        assertEquals(before, changes.total());
        lab.drainAndClose();
    }

    @Test
    void interfaceModeMakesAdaptiveOnlyTheGroupsOverArsInterfaces() {
        ConfigBuilder b = fabric();
        b.root().setAll(tables("""
            {"ARS_PROFILE": {"ars_profile_default": {"default_ars_object": "dlb"}},
             "ARS_OBJECT": {"dlb": {"assign_mode": "per_flowlet_quality", "flowlet_idle_time": "50",
                                    "max_flows": "1024"},
                            "spray": {"assign_mode": "per_packet_quality", "traffic_class": "3"}},
             "ARS_INTERFACES": {"Ethernet12": {"ars_obj_name": "spray"}, "Ethernet16": {"ars_obj_name": "spray"},
                                "Ethernet4": {}}}
            """));
        Lab lab = new Lab(b.build());
        var lb = lab.sw.forwarding().balancing();
        var routes = lab.sw.forwarding().routes();
        assertEquals("per-packet", lb.of(routes.exact(Ipv4.parse("10.8.0.0"), 16)).mode(),
            "10.8/16 leaves by Ethernet12 and Ethernet16, both 'spray'");
        assertEquals("ecmp", lb.of(routes.exact(Ipv4.parse("10.9.0.0"), 16)).mode(),
            "10.9/16 also leaves by Ethernet8, which is no ARS interface: the switch's default");
        long[] got = send(lab, "10.8.1.1", 26, 200);
        assertTrue(got[2] > 40 && got[3] > 40, java.util.Arrays.toString(got));
        long[] hashed = send(lab, "10.9.1.1", 26, 100);
        assertEquals(1, java.util.Arrays.stream(hashed).filter(c -> c > 0).count());
        lab.drainAndClose();
    }

    @Test
    void flowletTimeoutAloneStillMeansQueueOnlyFlowlets() {
        Lab lab = new Lab(fabric().switchField("flowlet_timeout", "20").build());
        assertEquals("flowlet", lab.sw.forwarding().balancing().of(
            lab.sw.forwarding().routes().exact(Ipv4.parse("10.9.0.0"), 16)).mode());
        lab.drainAndClose();
    }

    @Test
    void notModelledFieldsAreNoted() {
        ConfigBuilder b = fabric();
        b.root().setAll(tables("""
            {"ARS_OBJECT": {"o": {"assign_mode": "per_flowlet_quality", "primary_path_threshold": "100"}}}
            """));
        LoadedConfig loaded = ConfigLoader.read(b.root().toString());
        assertTrue(loaded.notes().toString().contains("ARS_OBJECT primary_path_threshold"), loaded.notes().toString());
        assertEquals("per_flowlet_quality", loaded.config().ars().objects().get("o").mode().sonicName());
    }

    @Test
    void everyMistakeIsOneLineNamingItsTableAndKey() {
        ConfigBuilder b = fabric();
        b.root().setAll(tables("""
            {"ARS_PROFILE": {"p": {"ars_nhg_path_selector_mode": "global", "default_ars_object": "nope",
                                   "sampling_interval": "0", "past_load_max_value": "x", "colour": "red"}},
             "ARS_OBJECT": {"o": {"assign_mode": "per_packet"}, "t": {"traffic_class": "3,9"}},
             "ARS_INTERFACES": {"Ethernet99": {"ars_obj_name": "o"}, "Ethernet4": {"ars_obj_name": "q"}},
             "ARS_NEXTHOPS": {"default|10.0.0.1": {"ars_obj_name": "o"}}}
            """));
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(b.root().toString()));
        assertEquals(List.of(
            "ARS_NEXTHOPS: selecting ARS next-hop groups by next hop is not modelled: use ARS_PROFILE "
                + "ars_nhg_path_selector_mode global or interface (ARS_INTERFACES)",
            "ARS_PROFILE|p: unknown field 'colour'",
            "ARS_PROFILE|p: sampling_interval 0 is out of range 1-1000000",
            "ARS_PROFILE|p: past_load_max_value must be a number, not 'x'",
            "ARS_OBJECT|o: assign_mode must be per_flowlet_quality or per_packet_quality, not 'per_packet'",
            "ARS_OBJECT|t: traffic_class must list traffic classes 0-7 like \"3,4\", not '3,9'",
            "ARS_PROFILE|p: default_ars_object 'nope' is not in ARS_OBJECT",
            "ARS_INTERFACES|Ethernet99: 'Ethernet99' is not a port or a port channel (PORT, PORTCHANNEL)",
            "ARS_INTERFACES|Ethernet4: ars_obj_name 'q' is not in ARS_OBJECT"), e.problems());
    }
}
