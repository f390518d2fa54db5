package io.rocelab.fabric.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** rxe's MTU from its netdev (rxe_param.h eth_mtu_int_to_enum, rxe.c rxe_set_mtu), at the edges. */
class NetdevMtuTest {
    @Test
    void theInterfacesMtuLess80BytesRoundedDownToAnIbMtu() {
        assertEquals(1024, NetdevMtu.ibMtuFor(1500), "a veth as ip link add makes it");
        assertEquals(4096, NetdevMtu.ibMtuFor(9000));
        assertEquals(4096, NetdevMtu.ibMtuFor(4096 + 80), "just room for a 4096-byte payload");
        assertEquals(2048, NetdevMtu.ibMtuFor(4096 + 79));
        assertEquals(2048, NetdevMtu.ibMtuFor(2048 + 80));
        assertEquals(1024, NetdevMtu.ibMtuFor(2048 + 79));
        assertEquals(512, NetdevMtu.ibMtuFor(1100));
        assertEquals(256, NetdevMtu.ibMtuFor(336));
        assertEquals(256, NetdevMtu.ibMtuFor(68), "below 256 bytes of room rxe still says 256");
    }

    @Test
    void theLoopbackInterfacesMtuIsRead() {
        // every Linux namespace has lo; its MTU is 65536 unless someone changed it
        assertEquals(true, NetdevMtu.of("lo").isPresent());
        assertEquals(true, NetdevMtu.of("no-such-interface-here").isEmpty());
    }
}
