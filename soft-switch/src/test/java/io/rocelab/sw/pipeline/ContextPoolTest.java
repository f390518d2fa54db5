package io.rocelab.sw.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.sw.config.Color;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A context reused through {@link ContextPool#acquireForParse} and parsed is field for field the
 * same as a fresh, fully reset one parsed from the same frame, whatever frame the context carried
 * before and whatever the later stages wrote into it: the parse fields it leaves uncleared are
 * always written by the parse (on a malformed frame, which is dropped, the fields the drop reads
 * are).
 */
class ContextPoolTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    /** what {@link PacketContext#resetForParse} leaves to the parse */
    private static final Set<String> PARSE_FIELDS = Set.of("kind", "l3Offset", "ipVersion", "l4Protocol",
        "l4Offset", "vlanOffset", "dscp", "pcp", "ecn", "dstMac", "srcMac");

    private final ParseStage parse = new ParseStage();

    private static List<ByteBuf> frames() {
        List<ByteBuf> l = new ArrayList<>();
        long router = MacAddress.parse(ConfigBuilder.ROUTER_MAC);
        l.add(roce4(router, -1));
        l.add(roce4(router, 5));
        l.add(new RoceFrame().ethernet(router, Lab.hostMac(2))
            .ipv6(Ipv6.parse("fd00:1::1"), Ipv6.parse("fd00:2::7")).udp(0xC002, 4791).dscpEcn(10, 1)
            .opcode(Opcode.RC_SEND_ONLY).destQp(0x12).psn(9).payload(new byte[32]).encode(ALLOC));
        l.add(raw(0x0806, 28, 0));                      // ARP
        l.add(raw(0x88B5, 46, 0));                      // other EtherType
        l.add(pfc());                                   // MAC control (PFC)
        l.add(raw(0x0800, 46, 0x00));                   // IPv4 with IHL 0: malformed after L2
        l.add(Unpooled.wrappedBuffer(new byte[10]));    // shorter than an Ethernet header
        l.add(vlanOnly());                              // tagged, truncated inside the tag
        return l;
    }

    private static ByteBuf roce4(long router, int pcp) {
        RoceFrame f = new RoceFrame().ethernet(router, Lab.hostMac(1));
        if (pcp >= 0) {
            f.vlan(new RoceFrame.VlanTag(io.rocelab.codec.header.EtherType.VLAN, pcp, 1, 100));
        }
        return f.ipv4(Lab.hostIp(1), Lab.hostIp(0)).udp(0xC001, 4791).dscpEcn(26, 2)
            .opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, 64).destQp(0x11).psn(7).payload(new byte[64])
            .encode(ALLOC);
    }

    private static ByteBuf raw(int type, int body, int firstBodyByte) {
        byte[] b = new byte[14 + body];
        for (int i = 0; i < 12; i++) {
            b[i] = (byte) (0x20 + i);
        }
        b[12] = (byte) (type >> 8);
        b[13] = (byte) type;
        b[14] = (byte) firstBodyByte;
        return Unpooled.wrappedBuffer(b);
    }

    private static ByteBuf pfc() {
        ByteBuf b = raw(0x8808, 46, 0x01);
        byte[] dst = {0x01, (byte) 0x80, (byte) 0xC2, 0, 0, 0x01};
        b.setBytes(0, dst);
        b.setByte(15, 0x01);  // opcode 0x0101
        b.setByte(17, 0x08);  // class enable vector: priority 3
        return b;
    }

    private static ByteBuf vlanOnly() {
        ByteBuf b = raw(0x8100, 2, 0x60);
        return b;
    }

    /** what the later stages and the MMU write, so that a reused context carries all of it */
    private static void dirty(PacketContext c) {
        c.vid = 7;
        c.tc = 5;
        c.priorityGroup = 3;
        c.queue = 6;
        c.lossless = true;
        c.color = Color.RED;
        c.egressPort = 2;
        c.flood = true;
        c.routed = true;
        c.chargedShared = 11;
        c.chargedHeadroom = 12;
        c.chargedReserved = 13;
    }

    @Test
    void aReusedContextParsesLikeAFreshOne() throws Exception {
        List<ByteBuf> frames = frames();
        try {
            for (ByteBuf before : frames) {
                for (ByteBuf now : frames) {
                    ContextPool pool = new ContextPool();
                    PacketContext used = pool.acquireForParse(before.duplicate(), 1, 100);
                    parse.apply(used);
                    dirty(used);
                    pool.release(used);

                    PacketContext reused = pool.acquireForParse(now.duplicate(), 3, 200);
                    assertSame(used, reused);
                    boolean ok = parse.apply(reused);

                    PacketContext fresh = new PacketContext();
                    fresh.reset();
                    fresh.frame = reused.frame;
                    fresh.length = now.readableBytes();
                    fresh.ingressPort = 3;
                    fresh.arrivalNanos = 200;
                    assertEquals(ok, parse.apply(fresh));
                    compare(fresh, reused, ok, frames.indexOf(before) + " then " + frames.indexOf(now));
                    assertEquals(1, pool.created());
                }
            }
        } finally {
            frames.forEach(ByteBuf::release);
        }
    }

    @Test
    void acquireStillGivesAFullyResetContext() throws Exception {
        ContextPool pool = new ContextPool();
        ByteBuf f = roce4(MacAddress.parse(ConfigBuilder.ROUTER_MAC), 2);
        try {
            PacketContext c = pool.acquireForParse(f, 1, 100);
            parse.apply(c);
            dirty(c);
            pool.release(c);
            PacketContext again = pool.acquire();
            assertSame(c, again);
            PacketContext fresh = new PacketContext();
            fresh.reset();
            compare(fresh, again, true, "acquire");
        } finally {
            f.release();
        }
    }

    private static void compare(PacketContext expected, PacketContext actual, boolean parsed, String what)
            throws IllegalAccessException {
        for (Field field : PacketContext.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || field.getName().equals("next")) {
                continue;
            }
            if (!parsed && PARSE_FIELDS.contains(field.getName())) {
                continue; // a malformed frame is dropped: nothing reads these
            }
            assertEquals(field.get(expected), field.get(actual), what + ": " + field.getName());
        }
        assertEquals(null, actual.next, what + ": next");
    }
}
