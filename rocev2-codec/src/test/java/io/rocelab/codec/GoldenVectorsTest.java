package io.rocelab.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rocelab.codec.header.Aeth;
import io.rocelab.codec.header.AtomicAckEth;
import io.rocelab.codec.header.AtomicEth;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Deth;
import io.rocelab.codec.header.Ieth;
import io.rocelab.codec.header.ImmDt;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Reth;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.testkit.GoldenVectors;
import io.rocelab.codec.testkit.GoldenVectors.Vector;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every golden frame decodes to exactly the fields of vectors.json and re-encodes byte for byte. */
class GoldenVectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    static Stream<Vector> vectors() {
        return GoldenVectors.all().stream();
    }

    @Test
    void thereAreFortyOneVectors() {
        assertEquals(41, GoldenVectors.all().size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void decodesToTheJsonFields(Vector v) {
        ByteBuf buf = Unpooled.wrappedBuffer(v.frame());
        try {
            JsonNode j = v.json();
            ParsedFrame f = new ParsedFrame();
            assertNull(f.parse(buf), "parse error");
            assertEquals(FrameKind.ROCEV2, f.kind());
            assertEquals(j.at("/eth/dst").asText(), MacAddress.toString(f.dstMac()));
            assertEquals(j.at("/eth/src").asText(), MacAddress.toString(f.srcMac()));
            JsonNode vlan = j.get("vlan");
            if (vlan.isNull()) {
                assertEquals(0, f.vlanCount());
            } else {
                assertEquals(1, f.vlanCount());
                int o = f.vlanOffset(0);
                assertEquals(vlan.get("vid").asInt(), Vlan.vid(buf, o));
                assertEquals(vlan.get("pcp").asInt(), Vlan.pcp(buf, o));
                assertEquals(vlan.get("dei").asInt(), Vlan.dei(buf, o));
                assertEquals(vlan.get("pcp").asInt(), f.pcp());
            }
            checkIp(j.get("ip"), f, buf);
            int udp = f.udpOffset();
            assertEquals(j.at("/udp/sport").asInt(), Udp.srcPort(buf, udp));
            assertEquals(j.at("/udp/dport").asInt(), Udp.dstPort(buf, udp));
            assertEquals(j.at("/udp/length").asInt(), Udp.length(buf, udp));
            assertEquals(j.at("/udp/checksum").asInt(), Udp.checksum(buf, udp));
            checkBth(j.get("bth"), f, buf);
            checkExtensionHeaders(j, f, buf);
            assertEquals(j.get("bth_offset").asInt(), f.bthOffset());
            assertEquals(j.get("icrc_offset").asInt(), f.icrcOffset());
            assertEquals(j.get("payload_len").asInt(), f.payloadLength());
            assertEquals(j.get("payload_hex").asText(),
                    ByteBufUtil.hexDump(buf, f.payloadOffset(), f.payloadLength()));
            assertEquals(j.get("pad_hex").asText(),
                    ByteBufUtil.hexDump(buf, f.payloadOffset() + f.payloadLength(), f.padCount()));
            assertEquals(j.get("eth_padding_len").asInt(), f.trailerLength());
            assertEquals(j.get("frame_len").asInt(), buf.readableBytes());
            assertEquals(j.get("icrc_wire_hex").asText(), ByteBufUtil.hexDump(buf, f.icrcOffset(), 4));
            assertEquals(j.get("icrc_crc32").asLong(), Integer.toUnsignedLong(f.icrc()));
            assertTrue(new Icrc().verify(f), "ICRC");
            assertEquals((int) j.get("icrc_crc32").asLong(), new Icrc().compute(f));
            if (f.ipVersion() == 4) {
                assertTrue(Ipv4.checksumOk(buf, f.l3Offset()), "IPv4 header checksum");
            }
        } finally {
            buf.release();
        }
    }

    private static void checkIp(JsonNode ip, ParsedFrame f, ByteBuf buf) {
        int l3 = f.l3Offset();
        assertEquals(ip.get("version").asInt(), f.ipVersion());
        assertEquals(ip.get("dscp").asInt(), f.dscp());
        assertEquals(ip.get("ecn").asInt(), f.ecn());
        if (f.ipVersion() == 4) {
            assertEquals(ip.get("src").asText(), Ipv4.toString(Ipv4.src(buf, l3)));
            assertEquals(ip.get("dst").asText(), Ipv4.toString(Ipv4.dst(buf, l3)));
            assertEquals(ip.get("tos").asInt(), Ipv4.tos(buf, l3));
            assertEquals(ip.get("ttl").asInt(), Ipv4.ttl(buf, l3));
            assertEquals(ip.get("id").asInt(), Ipv4.id(buf, l3));
            assertEquals(ip.get("total_length").asInt(), Ipv4.totalLength(buf, l3));
        } else {
            byte[] a = new byte[16];
            Ipv6.src(buf, l3, a);
            assertEquals(ip.get("src").asText(), Ipv6.toString(a));
            Ipv6.dst(buf, l3, a);
            assertEquals(ip.get("dst").asText(), Ipv6.toString(a));
            assertEquals(ip.get("traffic_class").asInt(), Ipv6.trafficClass(buf, l3));
            assertEquals(ip.get("flow_label").asInt(), Ipv6.flowLabel(buf, l3));
            assertEquals(ip.get("hop_limit").asInt(), Ipv6.hopLimit(buf, l3));
            assertEquals(ip.get("payload_length").asInt(), Ipv6.payloadLength(buf, l3));
        }
    }

    private static void checkBth(JsonNode bth, ParsedFrame f, ByteBuf buf) {
        int o = f.bthOffset();
        assertEquals(bth.get("opcode").asInt(), f.opcode().code());
        assertEquals(bth.get("opcode_name").asText(), f.opcode().name());
        assertEquals(bth.get("solicited").asInt(), Bth.solicited(buf, o));
        assertEquals(bth.get("migreq").asInt(), Bth.migReq(buf, o));
        assertEquals(bth.get("padcount").asInt(), Bth.padCount(buf, o));
        assertEquals(bth.get("tver").asInt(), Bth.tver(buf, o));
        assertEquals(bth.get("pkey").asInt(), Bth.pkey(buf, o));
        assertEquals(bth.get("fecn").asInt(), Bth.fecn(buf, o));
        assertEquals(bth.get("becn").asInt(), Bth.becn(buf, o));
        assertEquals(bth.get("resv6").asInt(), Bth.resv6(buf, o));
        assertEquals(bth.get("dqpn").asInt(), Bth.destQp(buf, o));
        assertEquals(bth.get("ackreq").asInt(), Bth.ackReq(buf, o));
        assertEquals(bth.get("resv7").asInt(), Bth.resv7(buf, o));
        assertEquals(bth.get("psn").asInt(), Bth.psn(buf, o));
    }

    private static void checkExtensionHeaders(JsonNode j, ParsedFrame f, ByteBuf buf) {
        List<String> expected = new ArrayList<>();
        j.get("headers").forEach(h -> expected.add(h.asText()));
        List<String> actual = new ArrayList<>();
        actual.add("BTH");
        f.opcode().headers().forEach(h -> actual.add(h.name().replace("_", "")));
        assertEquals(expected, actual);
        int o;
        if ((o = f.offsetOf(ExtHeader.RETH)) >= 0) {
            assertEquals(j.at("/reth/va").asLong(), Reth.va(buf, o));
            assertEquals(j.at("/reth/rkey").asLong(), Integer.toUnsignedLong(Reth.rkey(buf, o)));
            assertEquals(j.at("/reth/dmalen").asLong(), Reth.dmaLength(buf, o));
        }
        if ((o = f.offsetOf(ExtHeader.AETH)) >= 0) {
            JsonNode a = j.get("aeth");
            int syndrome = Aeth.syndrome(buf, o);
            assertEquals(a.get("syndrome").asInt(), syndrome);
            assertEquals(a.get("msn").asInt(), Aeth.msn(buf, o));
            assertEquals(a.get("syndrome_kind").asText(), AethSyndrome.kind(syndrome).name());
            assertEquals(a.get("syndrome_value").asInt(), AethSyndrome.value(syndrome));
            if (a.has("nak_name")) {
                assertEquals(a.get("nak_name").asText(), NakCode.of(AethSyndrome.value(syndrome)).name());
            }
        }
        if ((o = f.offsetOf(ExtHeader.ATOMIC_ETH)) >= 0) {
            JsonNode a = j.get("atomiceth");
            assertEquals(a.get("va").asLong(), AtomicEth.va(buf, o));
            assertEquals(a.get("rkey").asLong(), Integer.toUnsignedLong(AtomicEth.rkey(buf, o)));
            assertEquals(a.get("swap_add").asLong(), AtomicEth.swapAdd(buf, o));
            assertEquals(a.get("compare").asLong(), AtomicEth.compare(buf, o));
        }
        if ((o = f.offsetOf(ExtHeader.ATOMIC_ACK_ETH)) >= 0) {
            assertEquals(j.at("/atomicacketh/orig_remote_data").asLong(), AtomicAckEth.origRemoteData(buf, o));
        }
        if ((o = f.offsetOf(ExtHeader.DETH)) >= 0) {
            assertEquals(j.at("/deth/qkey").asLong(), Integer.toUnsignedLong(Deth.qkey(buf, o)));
            assertEquals(j.at("/deth/srcqp").asInt(), Deth.srcQp(buf, o));
            assertEquals(j.at("/deth/resv8").asInt(), Deth.resv8(buf, o));
        }
        if ((o = f.offsetOf(ExtHeader.IMM_DT)) >= 0) {
            assertEquals(j.at("/immdt/immdt").asLong(), Integer.toUnsignedLong(ImmDt.immediate(buf, o)));
        }
        if ((o = f.offsetOf(ExtHeader.IETH)) >= 0) {
            assertEquals(j.at("/ieth/rkey").asLong(), Integer.toUnsignedLong(Ieth.rkey(buf, o)));
        }
        if ((o = f.offsetOf(ExtHeader.CNP)) >= 0) {
            assertEquals(j.at("/cnp/reserved_hex").asText(), ByteBufUtil.hexDump(buf, o, 16));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void decodedFieldsReEncodeByteForByte(Vector v) {
        ByteBuf buf = Unpooled.wrappedBuffer(v.frame());
        ParsedFrame f = new ParsedFrame();
        assertNull(f.parse(buf));
        RoceFrame decoded = RoceFrame.decode(f);
        buf.release();
        // recompute the ICRC: the builder must produce it, not copy it
        decoded.recomputeIcrc();
        ByteBuf out = decoded.encode(UnpooledByteBufAllocator.DEFAULT);
        try {
            assertEquals(HEX.formatHex(v.frame()), ByteBufUtil.hexDump(out));
        } finally {
            out.release();
        }
    }

    /** Builds each frame from the JSON alone (no decoding), which checks the builder independently. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void jsonFieldsBuildTheSameFrame(Vector v) {
        JsonNode j = v.json();
        RoceFrame r = new RoceFrame()
                .ethernet(MacAddress.parse(j.at("/eth/dst").asText()), MacAddress.parse(j.at("/eth/src").asText()));
        if (!j.get("vlan").isNull()) {
            r.vlan(RoceFrame.VlanTag.dot1q(j.at("/vlan/pcp").asInt(), j.at("/vlan/vid").asInt()));
        }
        JsonNode ip = j.get("ip");
        if (ip.get("version").asInt() == 4) {
            r.ipv4(Ipv4.parse(ip.get("src").asText()), Ipv4.parse(ip.get("dst").asText()))
                    .trafficClass(ip.get("tos").asInt()).ttl(ip.get("ttl").asInt()).ipId(ip.get("id").asInt());
        } else {
            r.ipv6(Ipv6.parse(ip.get("src").asText()), Ipv6.parse(ip.get("dst").asText()))
                    .trafficClass(ip.get("traffic_class").asInt()).flowLabel(ip.get("flow_label").asInt())
                    .ttl(ip.get("hop_limit").asInt());
        }
        r.udp(j.at("/udp/sport").asInt(), j.at("/udp/dport").asInt()).udpChecksum(j.at("/udp/checksum").asInt());
        JsonNode b = j.get("bth");
        r.opcode(Opcode.of(b.get("opcode").asInt())).solicited(b.get("solicited").asInt() == 1)
                .migReq(b.get("migreq").asInt()).pkey(b.get("pkey").asInt()).fecn(b.get("fecn").asInt())
                .becn(b.get("becn").asInt()).destQp(b.get("dqpn").asInt()).ackReq(b.get("ackreq").asInt() == 1)
                .psn(b.get("psn").asInt());
        if (j.has("reth")) {
            r.reth(j.at("/reth/va").asLong(), (int) j.at("/reth/rkey").asLong(), j.at("/reth/dmalen").asLong());
        }
        if (j.has("aeth")) {
            r.aeth(j.at("/aeth/syndrome").asInt(), j.at("/aeth/msn").asInt());
        }
        if (j.has("atomiceth")) {
            r.atomicEth(j.at("/atomiceth/va").asLong(), (int) j.at("/atomiceth/rkey").asLong(),
                    j.at("/atomiceth/swap_add").asLong(), j.at("/atomiceth/compare").asLong());
        }
        if (j.has("atomicacketh")) {
            r.atomicAckEth(j.at("/atomicacketh/orig_remote_data").asLong());
        }
        if (j.has("deth")) {
            r.deth((int) j.at("/deth/qkey").asLong(), j.at("/deth/srcqp").asInt());
        }
        if (j.has("immdt")) {
            r.immDt((int) j.at("/immdt/immdt").asLong());
        }
        if (j.has("ieth")) {
            r.ieth((int) j.at("/ieth/rkey").asLong());
        }
        r.payload(HEX.parseHex(j.get("payload_hex").asText()));
        assertEquals(b.get("padcount").asInt(), r.padCount(), "default pad count");
        ByteBuf out = r.encode(UnpooledByteBufAllocator.DEFAULT);
        try {
            assertArrayEquals(v.frame(), ByteBufUtil.getBytes(out), "frame built from JSON fields");
        } finally {
            out.release();
        }
    }
}
