package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Frames from a peer on the same Ethernet that lie (an attacker computes valid ICRCs) never put
 * the NIC in the fatal state. Each frame is delivered in a buffer whose capacity is exactly the frame, as a switch's flood copies are: a
 * read past the end of the frame then throws instead of reading stale bytes, which is how such a
 * read shows.
 */
class HostileFramesTest {
    private static final int IP_A = Ipv4.parse("10.77.2.11");
    private static final int IP_B = Ipv4.parse("10.77.2.10");
    private static final long MS = 1_000_000L;

    /**
     * An ICMPv6 packet to the all-nodes group (ff02::1, which every NIC behind a switch gets a flood
     * copy of) with an IPv6 payload length of 0: 54 bytes, nothing after the IPv6 header. Neighbour discovery read the ICMPv6 type and code before it
     * looked at the length, past the end of the frame.
     */
    private static final String EMPTY_ICMPV6 = "33330000000102020202020286dd6000000000003afffe80000000000000"
            + "0000000000000000ff020000000000000000000000000001";

    /** The port of the NIC under attack: frames are put on its receive path by hand. */
    static final class InjectingPort extends ForwardingFramePort {
        private FrameReceiver receiver;

        InjectingPort(FramePort delegate) {
            super(delegate);
        }

        @Override
        public void setReceiver(FrameReceiver r) {
            receiver = r;
            super.setReceiver(r);
        }

        /** Delivers a copy of {@code frame} in a buffer exactly as large as the frame. */
        void inject(byte[] frame) {
            ByteBuf b = Unpooled.wrappedBuffer(frame.clone());
            assertEquals(frame.length, b.capacity());
            receiver.onFrame(this, b);
        }
    }

    private final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    private final InjectingPort portB;
    private final SoftNic a;
    private final SoftNic b;

    HostileFramesTest() {
        InProcessLink link = InProcessLink.builder().name("a-b").rateGbps(25).propagationDelayNanos(500).seed(20)
                .build(sched);
        portB = new InjectingPort(link.portB());
        a = SoftNic.builder().name("a").mac("52:54:00:79:00:01").ipv4(IP_A).ipv6("fd77::11").activeMtu(1024)
                .scheduler(sched).port(link.portA()).build();
        b = SoftNic.builder().name("b").mac("52:54:00:79:00:00").ipv4(IP_B).ipv6("fd77::10").activeMtu(1024)
                .scheduler(sched).port(portB).build();
    }

    @Test
    void theFiftyFourByteIcmpv6FrameIsDroppedAndCounted() {
        byte[] frame = HexFormat.of().parseHex(EMPTY_ICMPV6);
        assertEquals(54, frame.length);
        portB.inject(frame);
        sched.runFor(MS);
        assertEquals(0, b.counters().get(NicCounter.INTERNAL_ERRORS), "a remote frame is never an internal error");
        assertEquals(null, b.pollAsyncEvent(), "no IBV_EVENT_DEVICE_FATAL");
        assertEquals(1, b.counters().get(NicCounter.DROP_MALFORMED), "counted as malformed");
    }
}
