package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.sw.forward.FdbTable;
import io.rocelab.sw.pipeline.PacketContext;
import io.rocelab.sw.pipeline.ParseStage;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import org.junit.jupiter.api.Test;

/**
 * The switch's header-only parser gives the same L2-L4 fields as the codec's full parse, stops at
 * UDP (a bad BTH is the endpoint's business) and still rejects broken L2-L4 headers; the FDB's
 * per-port cache of the last learned source never outlives ageing or a port flush.
 */
class ParseAndFdbTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private final ParseStage parse = new ParseStage();

    private static ByteBuf roce(int vlanPcp) {
        RoceFrame f = new RoceFrame().ethernet(MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostMac(1));
        if (vlanPcp >= 0) {
            f.vlan(new RoceFrame.VlanTag(io.rocelab.codec.header.EtherType.VLAN, vlanPcp, 0, 100));
        }
        return f.ipv4(Lab.hostIp(1), Lab.hostIp(0)).udp(0xC001, 4791).dscpEcn(26, 2)
            .opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, 64).destQp(0x11).psn(7).payload(new byte[64])
            .encode(ALLOC);
    }

    private PacketContext parsed(ByteBuf frame, boolean[] ok) {
        PacketContext ctx = new PacketContext();
        ctx.reset();
        ctx.frame = frame;
        ctx.length = frame.readableBytes();
        ok[0] = parse.apply(ctx);
        return ctx;
    }

    @Test
    void headerOnlyParseMatchesTheCodecUpToUdp() {
        for (int pcp : new int[] {-1, 3}) {
            ByteBuf frame = roce(pcp);
            try {
                ParsedFrame full = new ParsedFrame();
                assertEquals(null, full.parse(frame));
                boolean[] ok = new boolean[1];
                PacketContext ctx = parsed(frame, ok);
                assertTrue(ok[0]);
                assertEquals(FrameKind.ROCEV2, ctx.kind);
                assertEquals(full.dstMac(), ctx.dstMac);
                assertEquals(full.srcMac(), ctx.srcMac);
                assertEquals(full.l3Offset(), ctx.l3Offset);
                assertEquals(full.ipVersion(), ctx.ipVersion);
                assertEquals(full.l4Protocol(), ctx.l4Protocol);
                assertEquals(full.l4Offset(), ctx.l4Offset);
                assertEquals(full.pcp(), ctx.pcp);
                assertEquals(full.dscp(), ctx.dscp);
                assertEquals(full.ecn(), ctx.ecn);
                assertEquals(full.vlanCount() == 0 ? -1 : full.vlanOffset(full.vlanCount() - 1), ctx.vlanOffset);
            } finally {
                frame.release();
            }
        }
    }

    @Test
    void aBadBthIsForwardedButBrokenIpOrUdpIsMalformed() {
        ByteBuf frame = roce(-1);
        try {
            ParsedFrame full = new ParsedFrame();
            full.parse(frame);
            int bth = full.bthOffset();
            frame.setByte(bth + 1, frame.getByte(bth + 1) | 0x0F); // TVer != 0: the codec rejects it
            assertFalse(full.parse(frame) == null);
            boolean[] ok = new boolean[1];
            parsed(frame, ok);
            assertTrue(ok[0], "the switch does not parse the BTH");

            int l3 = full.l3Offset();
            frame.setShort(l3 + Ipv4.TOTAL_LENGTH, 4000); // longer than the frame
            parsed(frame, ok);
            assertFalse(ok[0], "truncated IP");
            frame.setShort(l3 + Ipv4.TOTAL_LENGTH, full.end() - l3);
            frame.setShort(full.udpOffset() + 4, 3); // UDP length below its header
            parsed(frame, ok);
            assertFalse(ok[0], "bad UDP length");
            parsed(frame.slice(frame.readerIndex(), 10), ok);
            assertFalse(ok[0], "truncated Ethernet");
        } finally {
            frame.release();
        }
    }

    @Test
    void fdbCacheFollowsAgeingAndFlush() {
        FdbTable fdb = new FdbTable(1_000, 16);
        fdb.learn(0xA, 1, 0);
        fdb.learn(0xA, 1, 500);     // refreshed through the per-port cache
        assertEquals(1, fdb.lookup(0xA, 1_400));
        assertEquals(-1, fdb.lookup(0xA, 2_500), "aged out");
        fdb.learn(0xA, 1, 3_000);   // must be learned again, not only refreshed in a stale cache
        assertEquals(1, fdb.lookup(0xA, 3_100));
        fdb.flushPort(1);
        assertEquals(-1, fdb.lookup(0xA, 3_200));
        fdb.learn(0xA, 1, 3_300);
        assertEquals(1, fdb.lookup(0xA, 3_400));
        fdb.learn(0xA, 2, 3_500);   // the host moved to another port
        assertEquals(2, fdb.lookup(0xA, 3_600));
        fdb.learn(0xA, 1, 3_700);   // and back: the stale cache of port 1 must not hide the move
        assertEquals(1, fdb.lookup(0xA, 3_800));
        fdb.learn(0xA, 2, 3_900);
        assertEquals(2, fdb.lookup(0xA, 4_000));
    }
}
