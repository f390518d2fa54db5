package io.rocelab.sw.mlag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Lacpdu;
import io.rocelab.fabric.port.FramePort;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Frames an attacker on a host port could send, and garbage on the peer link: LACPDUs of every
 * length with random fields, and MLAG messages with the right header and random bodies. Nothing
 * escapes the switches, nothing leaks, and afterwards the bonds and the pair still work.
 */
class HostileLagFramesTest {
    private static final long SECOND = 1_000_000_000L;
    private static final int FRAMES = 5_000;

    private static ByteBuf lacpLike(SplittableRandom r) {
        int len = Ethernet.LENGTH + 1 + r.nextInt(130);
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer(Math.max(60, len));
        byte[] body = new byte[Math.max(60, len) - Ethernet.LENGTH];
        r.nextBytes(body);
        body[0] = (byte) Lacpdu.SUBTYPE_LACP;
        if (r.nextBoolean()) {
            body[2] = 1;
            body[3] = 20;
            if (body.length > 23) {
                body[22] = 2;
                body[23] = 20;
            }
        }
        b.writerIndex(Ethernet.LENGTH);
        Ethernet.write(b, 0, Lacpdu.DESTINATION, r.nextLong() & 0xFEFF_FFFF_FFFFL, EtherType.SLOW_PROTOCOLS);
        b.writeBytes(body);
        return b;
    }

    private static ByteBuf mlagLike(SplittableRandom r, boolean rightHeader) {
        int bodyLen = 1 + r.nextInt(1400);
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer(Ethernet.LENGTH + 12 + bodyLen);
        b.writerIndex(Ethernet.LENGTH);
        Ethernet.write(b, 0, MlagMessage.DESTINATION, 0x02_00_00_00_0a_01L, MlagMessage.ETHER_TYPE);
        if (rightHeader) {
            b.writeInt(0x4D4C_4147).writeByte(1).writeByte(1 + r.nextInt(2)).writeShort(1)
                .writeInt(Ipv4.parse("10.255.0.2"));
        } else {
            b.writeInt(r.nextInt()).writeLong(r.nextLong());
        }
        byte[] body = new byte[bodyLen];
        r.nextBytes(body);
        b.writeBytes(body);
        if (b.readableBytes() < 60) {
            b.writeZero(60 - b.readableBytes());
        }
        return b;
    }

    @Test
    void hostileLacpAndMlagFramesChangeNothingThatMatters() {
        MlagPair p = new MlagPair();
        try {
            p.time.runFor(5 * SECOND);
            SplittableRandom r = new SplittableRandom(7);
            FramePort hostSide = p.h.ports.get(0);
            FramePort peerFromLeaf2 = p.linksOf.get(1).get(2).portB();
            for (int i = 0; i < FRAMES; i++) {
                hostSide.send(lacpLike(r));
                hostSide.send(mlagLike(r, r.nextBoolean()));
                if (i % 10 == 0) {
                    peerFromLeaf2.send(mlagLike(r, r.nextBoolean()));
                }
                if (i % 100 == 0) {
                    p.time.runFor(1_000_000);
                }
            }
            p.time.runFor(SECOND);
            assertEquals(0, p.x.rxFrames + p.o.rxNotForMe + p.o.rxFrames, "no hostile frame was forwarded");
            assertTrue(p.leaf[0].lacpActor(0).illegalRx() > 0, "LACPDUs that do not decode are counted");
            // the hostile LACPDUs may have unsettled h's bond on leaf1; LACP settles it again
            p.time.runFor(5 * SECOND);
            assertEquals(2, p.h.distributing().size());
            assertTrue(p.leaf[1].mlag().peerAlive());
            long before = p.x.rxFrames;
            for (int f = 0; f < 100; f++) {
                p.h.send(p.x.mac, p.x.ip, 0xC000 + f);
            }
            p.time.runFor(100_000);
            assertEquals(100, p.x.rxFrames - before, "the pair still delivers every frame once");
        } finally {
            p.close();
        }
    }
}
