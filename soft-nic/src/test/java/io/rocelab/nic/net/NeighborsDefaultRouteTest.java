package io.rocelab.nic.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A host's default route in its ARP table ({@code ip route add default via ROUTER}, the router's MAC
 * known): a peer with no entry of its own goes to the router's MAC without an ARP request; a peer
 * on the host's own link is resolved by ARP; an entry of its own wins over the route.
 */
class NeighborsDefaultRouteTest {
    private static final long OWN_MAC = MacAddress.parse("02:00:00:00:00:01");
    private static final long ROUTER = MacAddress.parse("02:00:00:00:0a:01");
    private static final long STATIC = MacAddress.parse("02:00:00:00:0b:02");

    private final VirtualTimeScheduler clock = new VirtualTimeScheduler();
    private final Sent port = new Sent();
    private final CounterSet<NicCounter> counters = new CounterSet<>(NicCounter.class);
    private final Neighbors neighbors = new Neighbors(OWN_MAC, Ipv4.parse("10.0.0.1"), clock, port,
        UnpooledByteBufAllocator.DEFAULT, counters, new L2Framing(OWN_MAC, L2Framing.NO_VLAN, 3));

    private static ByteBuf frame() {
        return UnpooledByteBufAllocator.DEFAULT.buffer(64).writeZero(64);
    }

    @Test
    void offLinkPeersGoToTheRouterOnLinkOnesAreResolvedAndOwnEntriesWin() {
        neighbors.addOnLink(Ipv4.parse("10.0.0.2"));
        neighbors.setDefaultGateway(ROUTER);
        neighbors.add(Ipv4.parse("10.9.0.9"), STATIC);

        ByteBuf far = frame();
        assertTrue(neighbors.resolveOrPark(Ipv4.parse("10.3.0.7"), far), "routed: no ARP needed");
        assertEquals(ROUTER, MacAddress.get(far, Ethernet.DST));
        far.release();

        ByteBuf own = frame();
        assertTrue(neighbors.resolveOrPark(Ipv4.parse("10.9.0.9"), own));
        assertEquals(STATIC, MacAddress.get(own, Ethernet.DST), "a peer's own entry comes before the default");
        own.release();

        assertFalse(neighbors.resolveOrPark(Ipv4.parse("10.0.0.2"), frame()), "on the link: parked for ARP");
        assertEquals(1, counters.get(NicCounter.ARP_REQUESTS_SENT));
        assertEquals(1, neighbors.size(), "the route is no entry: the table holds the static one alone");
        assertEquals(1, port.frames.size(), "the ARP request, nothing else");
        port.releaseAll();
        neighbors.releaseAll();
    }

    @Test
    void withoutADefaultRouteAnUnknownPeerIsResolvedByArp() {
        assertFalse(neighbors.resolveOrPark(Ipv4.parse("10.3.0.7"), frame()));
        assertEquals(1, counters.get(NicCounter.ARP_REQUESTS_SENT));
        port.releaseAll();
        neighbors.releaseAll();
    }

    /** The NIC port's wire: keeps what is sent. */
    private static final class Sent extends AbstractFramePort {
        final List<ByteBuf> frames = new ArrayList<>();

        Sent() {
            super("eth0", true);
        }

        @Override
        public void send(ByteBuf frame) {
            frames.add(frame);
        }

        void releaseAll() {
            frames.forEach(ByteBuf::release);
            frames.clear();
        }
    }
}
