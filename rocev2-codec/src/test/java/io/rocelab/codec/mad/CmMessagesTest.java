package io.rocelab.codec.mad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameSummary;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.testkit.RxeCaptures;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The CM messages against real rdma_cm traffic between two Linux rxe hosts (rping and
 * {@code ib_write_bw -R} in vectors/rxe): every CM MAD decodes and re-encodes byte for byte, and the
 * field values are the ones Wireshark's CM dissector shows for the same frames.
 */
class CmMessagesTest {
    /** A CM MAD from a capture: where it was, and its 256 bytes. */
    private record Mad(String where, byte[] bytes) {
        ByteBuf buf() {
            return Unpooled.wrappedBuffer(bytes);
        }

        int attribute() {
            return MadHeader.attributeId(buf(), 0);
        }
    }

    /** Every MAD sent to QP1 in the rxe captures, in capture order per file. */
    private static Map<String, List<Mad>> madsByFile() {
        Map<String, List<Mad>> out = new LinkedHashMap<>();
        ParsedFrame f = new ParsedFrame();
        for (Path p : RxeCaptures.files()) {
            List<CaptureRecord> records = RxeCaptures.read(p);
            try {
                for (int i = 0; i < records.size(); i++) {
                    ByteBuf frame = records.get(i).content();
                    if (f.parse(frame) != null || !f.isRoce() || Bth.destQp(frame, f.bthOffset()) != MadHeader.GSI_QPN) {
                        continue;
                    }
                    byte[] mad = new byte[f.payloadLength()];
                    frame.getBytes(f.payloadOffset(), mad);
                    out.computeIfAbsent(p.getFileName().toString(), k -> new ArrayList<>())
                            .add(new Mad(p.getFileName() + " frame " + (i + 1), mad));
                }
            } finally {
                records.forEach(CaptureRecord::release);
            }
        }
        return out;
    }

    private static List<Mad> all() {
        List<Mad> all = new ArrayList<>();
        madsByFile().values().forEach(all::addAll);
        return all;
    }

    private static Mad first(String file, CmAttribute a) {
        return madsByFile().get(file).stream().filter(m -> m.attribute() == a.id()).findFirst().orElseThrow();
    }

    @Test
    void theCapturesHoldTheWholeHandshakeAndTeardown() {
        Map<String, List<Mad>> byFile = madsByFile();
        // ib_write_bw -R connects twice (its exchange QP, then the test QP) and disconnects both
        assertEquals(List.of(0x10, 0x13, 0x14, 0x10, 0x13, 0x14, 0x15, 0x16, 0x15, 0x16),
                byFile.get("write_bw_rdmacm.pcap").stream().map(Mad::attribute).toList());
        assertEquals(List.of(0x10, 0x13, 0x14, 0x15, 0x16),
                byFile.get("rping.pcap").stream().map(Mad::attribute).toList());
    }

    @Test
    void everyCmMadDecodesAndReEncodesByteForByte() {
        List<Mad> mads = all();
        assertEquals(15, mads.size());
        Map<CmAttribute, BiFunction<ByteBuf, Integer, Object>> decoders = Map.of(
                CmAttribute.REQ, CmReq::decode, CmAttribute.REP, CmRep::decode, CmAttribute.RTU, CmIdPair::decode,
                CmAttribute.DREQ, CmDreq::decode, CmAttribute.DREP, CmIdPair::decode);
        for (Mad m : mads) {
            ByteBuf in = m.buf();
            assertTrue(MadHeader.isCm(in, 0, in.readableBytes()), m.where());
            assertEquals(MadHeader.METHOD_SEND, MadHeader.method(in, 0), m.where());
            CmAttribute a = CmAttribute.of(m.attribute());
            Object message = decoders.get(a).apply(in, MadHeader.LENGTH);
            ByteBuf out = Unpooled.buffer(MadHeader.MAD_SIZE, MadHeader.MAD_SIZE).writerIndex(MadHeader.MAD_SIZE);
            MadHeader.write(out, 0, MadHeader.baseVersion(in, 0), MadHeader.mgmtClass(in, 0),
                    MadHeader.classVersion(in, 0), MadHeader.method(in, 0), MadHeader.status(in, 0),
                    MadHeader.classSpecific(in, 0), MadHeader.transactionId(in, 0), MadHeader.attributeId(in, 0),
                    MadHeader.reserved(in, 0), MadHeader.attributeModifier(in, 0));
            encoder(message).accept(out, MadHeader.LENGTH);
            assertEquals(ByteBufUtil.hexDump(in), ByteBufUtil.hexDump(out), m.where() + " " + a);
        }
    }

    private static BiConsumer<ByteBuf, Integer> encoder(Object message) {
        if (message instanceof CmReq r) {
            return r::encode;
        }
        if (message instanceof CmRep r) {
            return r::encode;
        }
        if (message instanceof CmDreq r) {
            return r::encode;
        }
        return ((CmIdPair) message)::encode;
    }

    /** Frame 22 of write_bw_rdmacm.pcap, field by field as Wireshark 4.0 decodes it (but one word). */
    @Test
    void aRealReqHasTheFieldsWiresharkShows() throws Exception {
        Mad m = first("write_bw_rdmacm.pcap", CmAttribute.REQ);
        ByteBuf b = m.buf();
        assertEquals(0x00000002bf4359f5L, MadHeader.transactionId(b, 0));
        CmReq r = CmReq.decode(b, MadHeader.LENGTH);
        assertEquals(0xf55943bf, r.localCommId());
        assertEquals(0x0000000001064853L, r.serviceId());
        assertEquals(CmServiceId.ip(CmServiceId.PROTOCOL_TCP, 18515), r.serviceId());
        assertEquals(0x505400fffe770001L, r.localCaGuid());
        assertEquals(0, r.localQkey());
        assertEquals(0x11, r.localQpn());
        assertEquals(0, r.responderResources());
        assertEquals(0, r.initiatorDepth());
        assertEquals(0x14, r.remoteCmResponseTimeout());
        assertEquals(0, r.transportServiceType()); // RC
        assertEquals(0x08df47, r.startingPsn());
        assertEquals(0x14, r.localCmResponseTimeout());
        assertEquals(7, r.retryCount());
        assertEquals(0xffff, r.pkey());
        assertEquals(3, r.pathMtu()); // IBA enum 3 = 1024 bytes
        assertEquals(7, r.rnrRetryCount());
        assertEquals(0xf, r.maxCmRetries());
        assertEquals(0, r.srq());
        CmPath p = r.primary();
        assertEquals(0xffff, p.localLid());
        assertEquals(0xffff, p.remoteLid());
        assertArrayEquals(ipv4MappedGid("10.77.0.11"), p.localGid());
        assertArrayEquals(ipv4MappedGid("10.77.0.10"), p.remoteGid());
        // bytes 88..91 are 48 7b e0 00: IBA table 99 puts the 20-bit flow label first, then 6 reserved
        // bits and the 6-bit packet rate (0 here). Wireshark 4.0's CM dissector shows other values for
        // this one word (flow label 0x00487, rate 0x08), as if it read only its first 24 bits; every
        // other field of the path agrees with it.
        assertEquals(0x487be, p.flowLabel());
        assertEquals(0, p.reserved6());
        assertEquals(0, p.packetRate());
        assertEquals(0, p.trafficClass());
        assertEquals(0x40, p.hopLimit());
        assertEquals(0, p.sl());
        assertEquals(0x13, p.localAckTimeout());
        assertEquals(0, r.alternate().localLid());
        CmaIpHeader h = CmaIpHeader.decode(b, MadHeader.LENGTH + CmReq.PRIVATE_DATA);
        assertEquals(4, h.ipVersion());
        assertEquals(0xa735, h.sourcePort());
        assertEquals(InetAddress.getByName("10.77.0.11"), h.sourceAddress());
        assertEquals(InetAddress.getByName("10.77.0.10"), h.destinationAddress());
        // rdma_cm writes exactly this header for that connection
        ByteBuf mine = Unpooled.buffer(CmaIpHeader.LENGTH).writerIndex(CmaIpHeader.LENGTH);
        CmaIpHeader.ipv4(InetAddress.getByName("10.77.0.11"), 0xa735, InetAddress.getByName("10.77.0.10"))
                .encode(mine, 0);
        assertEquals(ByteBufUtil.hexDump(b, MadHeader.LENGTH + CmReq.PRIVATE_DATA, CmaIpHeader.LENGTH),
                ByteBufUtil.hexDump(mine));
    }

    /** Frames 23 and 192 of write_bw_rdmacm.pcap, as Wireshark 4.0 decodes them. */
    @Test
    void aRealRepAndDreqHaveTheFieldsWiresharkShows() {
        CmRep rep = CmRep.decode(first("write_bw_rdmacm.pcap", CmAttribute.REP).buf(), MadHeader.LENGTH);
        assertEquals(0xabe6df8f, rep.localCommId());
        assertEquals(0xf55943bf, rep.remoteCommId());
        assertEquals(0x11, rep.localQpn());
        assertEquals(0xd2d2e5, rep.startingPsn());
        assertEquals(0x0f, rep.targetAckDelay());
        assertEquals(7, rep.rnrRetryCount());
        assertEquals(0, rep.srq());
        assertEquals(0x505400fffe770000L, rep.localCaGuid());
        CmDreq dreq = CmDreq.decode(first("write_bw_rdmacm.pcap", CmAttribute.DREQ).buf(), MadHeader.LENGTH);
        assertEquals(0xf45943bf, dreq.localCommId());
        assertEquals(0xa9e6df8f, dreq.remoteCommId());
        assertEquals(0x12, dreq.remoteQpn());
    }

    @Test
    void rejAndMraRoundTripWithEveryFieldAtItsEdges() {
        byte[] ari = new byte[CmRej.ARI_LENGTH];
        ari[0] = 1;
        ari[71] = (byte) 0xff;
        byte[] pd = new byte[CmRej.PRIVATE_DATA_LENGTH];
        pd[147] = 0x5a;
        CmRej rej = new CmRej(0x01020304, 0xa0b0c0d0, 2, 0x3f, 0x7f, 1, CmRej.REASON_CONSUMER_REJECT, ari, pd);
        ByteBuf b = Unpooled.buffer(MadHeader.DATA_LENGTH).writerIndex(MadHeader.DATA_LENGTH);
        rej.encode(b, 0);
        assertEquals(0x01020304, b.getInt(0));
        assertEquals(0xbf, b.getUnsignedByte(8)); // messageRejected 2 in the top two bits
        assertEquals(0xff, b.getUnsignedByte(9));
        assertEquals(28, b.getUnsignedShort(10));
        CmRej back = CmRej.decode(b, 0);
        assertEquals(2, back.messageRejected());
        assertEquals(0x7f, back.rejectInfoLength());
        assertArrayEquals(ari, back.additionalRejectInfo());
        assertArrayEquals(pd, back.privateData());

        CmMra mra = new CmMra(7, 8, 1, 0, 0x1f, 0, new byte[CmMra.PRIVATE_DATA_LENGTH]);
        ByteBuf m = Unpooled.buffer(MadHeader.DATA_LENGTH).writerIndex(MadHeader.DATA_LENGTH);
        mra.encode(m, 0);
        assertEquals(0x40, m.getUnsignedByte(8));
        assertEquals(0xf8, m.getUnsignedByte(9));
        CmMra mraBack = CmMra.decode(m, 0);
        assertEquals(1, mraBack.messageMraed());
        assertEquals(0x1f, mraBack.serviceTimeout());
    }

    @Test
    void aFieldThatDoesNotFitItsBitsIsRefusedByName() {
        CmRej tooWide = new CmRej(0, 0, 4, 0, 0, 0, 0, new byte[CmRej.ARI_LENGTH], new byte[CmRej.PRIVATE_DATA_LENGTH]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> tooWide.encode(Unpooled.buffer(MadHeader.DATA_LENGTH).writerIndex(MadHeader.DATA_LENGTH), 0));
        assertTrue(e.getMessage().contains("messageRejected"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CmIdPair(0, 0, new byte[10]));
    }

    @Test
    void serviceIdsOfRdmaCmPortSpaces() {
        long sid = CmServiceId.ip(CmServiceId.PROTOCOL_TCP, 7174);
        assertEquals(0x0000000001061c06L, sid); // rping's default port, as in rping.pcap
        assertTrue(CmServiceId.isIp(sid));
        assertEquals(7174, CmServiceId.port(sid));
        assertEquals("0x0000000001061c06 (TCP port 7174)", CmServiceId.describe(sid));
        assertFalse(CmServiceId.isIp(0x1000000000000001L));
        assertEquals("0x1000000000000001", CmServiceId.describe(0x1000000000000001L));
        assertNotNull(CmAttribute.of(0x1a));
        assertEquals(null, CmAttribute.of(0x99));
    }

    @Test
    void decodeLinesNameTheCmMessage() {
        ParsedFrame f = new ParsedFrame();
        List<String> lines = new ArrayList<>();
        Path file = RxeCaptures.files().stream().filter(p -> p.getFileName().toString().equals("rping.pcap"))
                .findFirst().orElseThrow();
        List<CaptureRecord> records = RxeCaptures.read(file);
        try {
            for (CaptureRecord r : records) {
                if (f.parse(r.content()) == null && f.isRoce()
                        && Bth.destQp(r.content(), f.bthOffset()) == MadHeader.GSI_QPN) {
                    lines.add(new FrameSummary().describe(f, new StringBuilder()).toString());
                }
            }
        } finally {
            records.forEach(CaptureRecord::release);
        }
        assertEquals(5, lines.size());
        assertTrue(lines.get(0).endsWith(" CM REQ lcid 0x7bdd9a4d sid 0x0000000001061c06 (TCP port 7174)"
                + " QPN 0x000011 PSN 0xb8d587 MTU 1024 from 10.77.0.11:53234 to 10.77.0.10"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" CM REP lcid 0xcf2e5d89 rcid 0x7bdd9a4d QPN 0x000011 PSN 0xc64729"),
                lines.get(1));
        assertTrue(lines.get(2).endsWith(" CM RTU lcid 0x7bdd9a4d rcid 0xcf2e5d89"), lines.get(2));
        assertTrue(lines.get(3).endsWith(" CM DREQ lcid 0x7bdd9a4d rcid 0xcf2e5d89 QPN 0x000011"), lines.get(3));
        assertTrue(lines.get(4).endsWith(" CM DREP lcid 0xcf2e5d89 rcid 0x7bdd9a4d"), lines.get(4));
    }

    /** The RoCEv2 GID of an IPv4 address: ::ffff:a.b.c.d. */
    private static byte[] ipv4MappedGid(String ip) throws Exception {
        byte[] g = new byte[16];
        g[10] = (byte) 0xff;
        g[11] = (byte) 0xff;
        System.arraycopy(InetAddress.getByName(ip).getAddress(), 0, g, 12, 4);
        return g;
    }
}
