package io.rocelab.nic;

import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;

/**
 * The far end of {@link TwoProcessTransferTest}, run in its own JVM: a soft NIC on a real-time
 * scheduler behind a frame-over-UDP port on 127.0.0.1, with one RC QP acting as responder.
 *
 * <p>The exchange over stdin/stdout is line based, every line of ours starting with
 * {@value #TAG} so that stray output cannot be mistaken for it, in the spirit of
 * {@code ibv_rc_pingpong}'s {@code LID:QPN:PSN:GID} record:
 * <pre>
 * arg:   the parent's UDP port
 * out:   PEER READY udpPort qpn psn rkey vaddr      (memory: [0, 64K) READ source, [64K, 128K) WRITE target)
 * in:    qpn psn                                    (the parent's QP)
 * out:   PEER RTS
 * out:   PEER RECV status byteLen sha256(recv buffer)    (when the SEND has landed)
 * in:    DIGEST
 * out:   PEER MEM sha256(WRITE target)
 * in:    end of input: exit
 * </pre>
 * The process also exits on its own after {@value #MAX_LIFE_SECONDS} s, so a lost parent never
 * leaves it behind.
 */
public final class UdpPeerMain {
    static final String TAG = "PEER";
    static final int SIZE = 64 * 1024;
    static final long VADDR = 0x7f00_0000_0000L;
    static final int PSN = 0x00ABCD;
    static final long READ_SOURCE_SEED = 11;
    static final int MAX_LIFE_SECONDS = 60;
    /**
     * Local ACK timeout exponent of both QPs: 4.096 us x 2^18 = 1.07 s. A cold JVM on a loaded
     * 2-core machine can stall for longer than perftest's 14 (67 ms) times retry_cnt, and that is
     * not what the two-process test is about.
     */
    static final int ACK_TIMEOUT = 18;

    private UdpPeerMain() {
    }

    public static void main(String[] args) throws Exception {
        Thread reaper = new Thread(() -> {
            try {
                Thread.sleep(MAX_LIFE_SECONDS * 1000L);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(3);
        }, "peer-reaper");
        reaper.setDaemon(true);
        reaper.start();

        int parentPort = Integer.parseInt(args[0]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.US_ASCII);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try (RealTimeScheduler sched = RealTimeScheduler.start("peer-nic");
             UdpFramePort port = UdpFramePort.builder().name("peer")
                     .localAddress(new InetSocketAddress("127.0.0.1", 0))
                     .remoteAddress(new InetSocketAddress("127.0.0.1", parentPort)).open(sched)) {
            SoftNic nic = SoftNic.builder().name("peer").mac("52:54:00:77:00:00").ipv4(NicRig.IP_B)
                    .activeMtu(4096).scheduler(sched).port(port).build();
            ProtectionDomain pd = nic.allocPd();
            CompletionQueue cq = nic.createCq(64);
            QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, QpCaps.defaults());
            byte[] mem = new byte[2 * SIZE];
            byte[] readSource = new byte[SIZE];
            new Random(READ_SOURCE_SEED).nextBytes(readSource);
            System.arraycopy(readSource, 0, mem, 0, SIZE);
            byte[] recv = new byte[SIZE];
            MemoryRegion mr = pd.registerMr(mem, VADDR, AccessFlags.ALL);
            MemoryRegion recvMr = pd.registerMr(recv, 0x1000, AccessFlags.LOCAL_WRITE);
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
            qp.postRecv(new RecvWr(100, Sge.of(recvMr)));
            out.println(TAG + " READY " + port.localAddress().getPort() + " " + qp.qpn() + " " + PSN + " "
                    + mr.rkey() + " " + VADDR);

            String[] peer = in.readLine().trim().split(" ");
            int peerQpn = Integer.parseInt(peer[0]);
            int peerPsn = Integer.parseInt(peer[1]);
            qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(NicRig.IP_A)).pathMtu(4096)
                    .destQpn(peerQpn).rqPsn(peerPsn).maxDestRdAtomic(16).minRnrTimer(12));
            qp.modify(new QpAttr().state(QpState.RTS).sqPsn(PSN).timeout(ACK_TIMEOUT).retryCnt(7).rnrRetry(7).maxRdAtomic(16));
            out.println(TAG + " RTS");

            WorkCompletion wc;
            while ((wc = cq.poll()) == null) {
                Thread.sleep(1);
            }
            out.println(TAG + " RECV " + wc.status() + " " + wc.byteLen() + " " + sha256(recv, 0, SIZE));
            for (String line; (line = in.readLine()) != null; ) {
                if (line.trim().equals("DIGEST")) {
                    out.println(TAG + " MEM " + sha256(mem, SIZE, SIZE));
                }
            }
            nic.close();
        }
        System.exit(0);
    }

    static String sha256(byte[] b, int off, int len) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        d.update(b, off, len);
        return HexFormat.of().formatHex(d.digest());
    }
}
