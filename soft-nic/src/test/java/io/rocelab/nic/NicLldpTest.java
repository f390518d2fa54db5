package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.lldp.LldpId;
import io.rocelab.codec.lldp.Lldpdu;
import io.rocelab.fabric.lldp.LldpAgent;
import io.rocelab.fabric.lldp.LldpNeighbor;
import org.junit.jupiter.api.Test;

/**
 * Two dual-port NICs cabled port to port run LLDP on both ports: each port learns the other NIC's
 * port (chassis and port ID its MAC, system name its host's name, its IPv4 address), the DCBX its
 * DCB settings advertise; a port whose link goes down forgets its neighbour; closing the NIC sends
 * the shutdown LLDPDU, and the partner forgets it at once.
 */
class NicLldpTest {
    private static final long S = LldpAgent.SECOND;

    @Test
    void eachPortLearnsItsPartnerAndForgetsItWhenTheLinkGoesDown() {
        NicRig rig = NicRig.dualPort();
        rig.a.startLldp("host-a");
        rig.b.startLldp("host-b");
        rig.runFor(5 * S);
        for (int port = 1; port <= 2; port++) {
            LldpNeighbor n = rig.a.lldp().neighbor(port);
            Lldpdu pdu = n.pdu();
            long mac = rig.b.port(port).mac();
            assertEquals("host-b", pdu.systemName());
            assertEquals(LldpId.chassisMac(mac), pdu.chassisId());
            assertEquals(LldpId.portMac(mac), pdu.portId());
            assertEquals(Ipv4.toString(rig.b.port(port).ipv4()), pdu.managementAddress().address());
            assertEquals(port, pdu.managementAddress().ifIndex());
            assertEquals(new Lldpdu.Capabilities(0x80, 0x80), pdu.capabilities(), "station only");
            assertEquals(rig.b.dcb().advertised(port), pdu.dcbx(), "what its DCB settings advertise");
            assertEquals("host-a", rig.b.lldp().neighbor(port).pdu().systemName());
        }
        assertTrue(rig.a.lldp().agent(1).framesOut() >= 4, "the fast start");
        assertEquals(0, rig.a.lldp().agent(1).framesDiscarded());

        rig.link1.setUp(false);
        rig.runFor(S);
        assertNull(rig.a.lldp().neighbor(1), "link down: forgotten");
        assertEquals("host-b", rig.a.lldp().neighbor(2).pdu().systemName(), "port 2 unaffected");

        rig.b.close();
        rig.runFor(S);
        assertNull(rig.a.lldp().neighbor(2), "b's shutdown LLDPDU");
        assertEquals(0, rig.a.lldp().agent(2).ageouts(), "removed, not aged out");
    }
}
