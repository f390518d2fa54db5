package io.rocelab.fabric.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A wrapper passes frames and link state through and presents itself as the receiving port. */
class ForwardingFramePortTest {
    @Test
    void passesEverythingThrough() {
        VirtualTimeScheduler sched = new VirtualTimeScheduler();
        InProcessLink link = InProcessLink.builder().rateGbps(100).build(sched);
        List<Integer> tapped = new ArrayList<>();
        ForwardingFramePort a = new ForwardingFramePort(link.portA()) {
            @Override
            public void send(ByteBuf frame) {
                tapped.add(frame.readableBytes());
                super.send(frame);
            }
        };
        ForwardingFramePort b = new ForwardingFramePort(link.portB()) {
        };
        List<FramePort> receivedOn = new ArrayList<>();
        b.setReceiver((port, frame) -> {
            receivedOn.add(port);
            frame.release();
        });
        List<Boolean> states = new ArrayList<>();
        a.addLinkStateListener((port, up) -> states.add(up));
        assertEquals(link.portA().name(), a.name());
        assertTrue(a.isUp());
        a.send(Unpooled.buffer(64).writeZero(64));
        sched.runUntilIdle();
        assertEquals(List.of(64), tapped);
        assertEquals(1, receivedOn.size());
        assertSame(b, receivedOn.get(0), "the receiver sees the wrapper, not the port inside");
        link.setUp(false);
        sched.runUntilIdle();
        assertFalse(a.isUp());
        assertEquals(List.of(false), states);
    }
}
