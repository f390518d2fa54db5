package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.header.AtomicEth;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Reth;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.testkit.RxeCaptures;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.port.LinkStateListener;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Replays the request frames of real Linux rxe captures (client 10.77.0.11 to server 10.77.0.10)
 * into a rocelab responder set up with the QPN, PSN, MTU, rkey and addresses read from the frames,
 * and checks it answers exactly as the rxe server did: the same response opcodes, PSNs, AETH
 * syndromes and MSNs, and the same UDP source port.
 */
class RxeReplayTest {
    private static final int CLIENT = Ipv4.parse("10.77.0.11");
    private static final int SERVER = Ipv4.parse("10.77.0.10");

    record Resp(Opcode opcode, int psn, int syndrome, int msn) {
    }

    /** A port whose "wire" is the test: frames sent are kept, frames are injected by hand. */
    static final class ScriptedPort implements FramePort {
        final List<byte[]> sent = new ArrayList<>();
        FrameReceiver receiver;

        @Override
        public String name() {
            return "replay";
        }

        @Override
        public void send(ByteBuf frame) {
            sent.add(ByteBufUtil.getBytes(frame));
            frame.release();
        }

        @Override
        public void setReceiver(FrameReceiver r) {
            receiver = r;
        }

        @Override
        public boolean isUp() {
            return true;
        }

        @Override
        public void addLinkStateListener(LinkStateListener listener) {
        }

        @Override
        public boolean removeLinkStateListener(LinkStateListener listener) {
            return false;
        }
    }

    /**
     * The captures live in the codec's test-jar; {@code RxeCaptures.files()} only works on a
     * directory, so the file is copied out of the jar first.
     */
    private static Path extract(String file) {
        try (InputStream in = RxeCaptures.class.getResourceAsStream("/vectors/rxe/" + file)) {
            assertTrue(in != null, file + " on the test classpath");
            Path tmp = Files.createTempFile("rxe-", "-" + file);
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rc_pingpong.pcap", "write_bw.pcap", "read_bw.pcap", "atomic_bw.pcap", "send_bw.pcap"})
    void responderAnswersLikeRxe(String file) {
        List<CaptureRecord> records = RxeCaptures.read(extract(file));
        List<byte[]> requests = new ArrayList<>();
        List<Resp> expected = new ArrayList<>();
        int serverUdpPort = -1;
        long clientMac = -1;
        int clientQpn = -1;
        int mtu = 0;
        long minVa = Long.MAX_VALUE;
        long maxEnd = 0;
        int rkey = -1;
        ParsedFrame f = new ParsedFrame();
        try {
            for (CaptureRecord r : records) {
                ByteBuf b = r.content();
                if (f.parse(b) != null || f.kind() != FrameKind.ROCEV2 || f.ipVersion() != 4) {
                    continue;
                }
                int src = Ipv4.src(b, f.l3Offset());
                Opcode op = f.opcode();
                if (src == CLIENT && op.has(Opcode.REQUEST)) {
                    requests.add(ByteBufUtil.getBytes(b));
                    clientMac = Ethernet.src(b, b.readerIndex());
                    if (op.has(Opcode.FIRST)) {
                        mtu = Math.max(mtu, f.payloadLength());
                    }
                    int reth = f.offsetOf(ExtHeader.RETH);
                    int aeth = f.offsetOf(ExtHeader.ATOMIC_ETH);
                    if (reth >= 0) {
                        rkey = Reth.rkey(b, reth);
                        minVa = Math.min(minVa, Reth.va(b, reth));
                        maxEnd = Math.max(maxEnd, Reth.va(b, reth) + Reth.dmaLength(b, reth));
                    } else if (aeth >= 0) {
                        rkey = AtomicEth.rkey(b, aeth);
                        minVa = Math.min(minVa, AtomicEth.va(b, aeth));
                        maxEnd = Math.max(maxEnd, AtomicEth.va(b, aeth) + 8);
                    }
                } else if (src == SERVER && !op.has(Opcode.REQUEST)) {
                    int aeth = f.offsetOf(ExtHeader.AETH);
                    expected.add(new Resp(op, f.psn(), aeth < 0 ? -1 : b.getUnsignedByte(aeth),
                            aeth < 0 ? -1 : b.getUnsignedMedium(aeth + 1)));
                    serverUdpPort = b.getUnsignedShort(f.udpOffset());
                    clientQpn = f.destQp();
                }
            }
        } finally {
            records.forEach(CaptureRecord::release);
        }
        assertFalse(requests.isEmpty());
        assertFalse(expected.isEmpty());

        VirtualTimeScheduler sched = new VirtualTimeScheduler();
        ScriptedPort port = new ScriptedPort();
        SoftNic nic = SoftNic.builder().name("server").mac("52:54:00:77:00:00").ipv4(SERVER).scheduler(sched)
                .port(port).build();
        nic.addNeighbor(CLIENT, clientMac);
        ProtectionDomain pd = nic.allocPd();
        CompletionQueue cq = nic.createCq(100_000);
        QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, new QpCaps(64, 4096, 1, 1, 0, false));
        ParsedFrame first = new ParsedFrame();
        ByteBuf firstBuf = Unpooled.wrappedBuffer(requests.get(0));
        first.parse(firstBuf);
        assertEquals(qp.qpn(), first.destQp(), "rxe's first QPN is 0x11, and so is ours");
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(CLIENT)).pathMtu(mtu == 0 ? 1024 : mtu)
                .destQpn(clientQpn).rqPsn(first.psn()).maxDestRdAtomic(16).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
        if (rkey != -1) {
            byte[] mem = new byte[(int) (maxEnd - minVa)];
            nic.registerMrWithKey(pd, mem, minVa, AccessFlags.ALL, rkey);
        }
        MemoryRegion recvMr = pd.registerMr(new byte[8192], 0x1000, AccessFlags.LOCAL_WRITE);
        for (int i = 0; i < 4096; i++) {
            qp.postRecv(new RecvWr(i, Sge.of(recvMr)));
        }
        sched.runUntilIdle();
        for (byte[] req : requests) {
            ByteBuf b = Unpooled.directBuffer(req.length).writeBytes(req);
            port.receiver.onFrame(port, b);
            sched.runUntilIdle();
        }

        List<Resp> actual = new ArrayList<>();
        ParsedFrame g = new ParsedFrame();
        for (byte[] out : port.sent) {
            ByteBuf b = Unpooled.wrappedBuffer(out);
            assertTrue(g.parse(b) == null && g.kind() == FrameKind.ROCEV2);
            int aeth = g.offsetOf(ExtHeader.AETH);
            actual.add(new Resp(g.opcode(), g.psn(), aeth < 0 ? -1 : b.getUnsignedByte(aeth),
                    aeth < 0 ? -1 : b.getUnsignedMedium(aeth + 1)));
            assertEquals(serverUdpPort, b.getUnsignedShort(g.udpOffset()), "UDP source port as rxe's");
        }
        assertEquals(expected.size(), actual.size(), file + ": number of responses");
        assertEquals(expected, actual, file);
        assertEquals(0, nic.counters().get(NicCounter.DROP_BAD_ICRC), "rxe's ICRCs verify");
        nic.close();
        sched.runUntilIdle();
    }
}
