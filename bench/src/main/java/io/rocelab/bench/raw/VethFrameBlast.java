package io.rocelab.bench.raw;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.raw.AfPacketRawSocket;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The frame generator and sink of the veth forwarding benchmark ({@code bench/run-bridge.sh}): RoCEv2
 * RDMA WRITE MIDDLE frames of a 4096-byte payload (4,154 bytes on the wire without FCS, DSCP 26 and
 * ECT(0) as a RoCE NIC marks them, a valid ICRC) sent as fast as one AF_PACKET socket takes them, and
 * a receiver that counts them on another interface. Whatever forwards between the two interfaces
 * (the rocelab switch process or a Linux bridge) sees the same frames from the same sender, so the
 * receiver's frames per second of one beside the other is the forwarder's ratio, this program's own
 * costs being the same in both.
 *
 * <pre>
 *   VethFrameBlast receive IFACE MAX_SECONDS
 *   VethFrameBlast send IFACE SECONDS SRC_MAC DST_MAC SRC_IP DST_IP
 * </pre>
 *
 * The receiver prints {@code rx: <kfps> kfps <frames> frames in <seconds> s drops-at-socket <n>} for
 * the frames between the first and the last one it saw; it stops 1 s after the last frame or after
 * MAX_SECONDS. The sender prints {@code tx: <kfps> kfps <frames> frames in <seconds> s}.
 */
public final class VethFrameBlast {
    static final int PAYLOAD = 4096;
    private static final int ROCE_DSCP = 26;
    private static final int ECT0 = 2;
    /** Ethernet 14 + IPv4 20 + the UDP source port's 2. */
    private static final int UDP_DST_PORT = 36;

    private VethFrameBlast() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("receive")) {
            receive(args[1], Double.parseDouble(args[2]));
        } else if (args.length == 7 && args[0].equals("send")) {
            send(args[1], Double.parseDouble(args[2]), MacAddress.parse(args[3]), MacAddress.parse(args[4]),
                    ipv4(args[5]), ipv4(args[6]));
        } else {
            System.err.println("usage: VethFrameBlast receive IFACE MAX_SECONDS"
                    + " | send IFACE SECONDS SRC_MAC DST_MAC SRC_IP DST_IP");
            System.exit(2);
        }
    }

    /** One WRITE MIDDLE frame of the benchmark's flow. */
    static byte[] frame(long srcMac, long dstMac, int srcIp, int dstIp) {
        ByteBuf buf = new RoceFrame().ethernet(dstMac, srcMac).ipv4(srcIp, dstIp).dscpEcn(ROCE_DSCP, ECT0)
                .udp(49152, 4791).opcode(Opcode.RC_RDMA_WRITE_MIDDLE).destQp(0x11).psn(1)
                .payload(new byte[PAYLOAD]).encode(UnpooledByteBufAllocator.DEFAULT);
        try {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.getBytes(buf.readerIndex(), bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    private static void send(String iface, double seconds, long srcMac, long dstMac, int srcIp, int dstIp)
            throws IOException {
        byte[] frame = frame(srcMac, dstMac, srcIp, dstIp);
        try (AfPacketRawSocket socket = AfPacketRawSocket.open(iface, frame.length, 1)) {
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            long sent = 0;
            long now = start;
            while (now < end) {
                for (int i = 0; i < 64; i++) {
                    try {
                        socket.send(frame, frame.length);
                        sent++;
                    } catch (IOException full) {
                        Thread.onSpinWait(); // ENOBUFS: the interface's queue is full, try again
                    }
                }
                now = System.nanoTime();
            }
            double s = (now - start) / 1e9;
            System.out.printf(Locale.ROOT, "tx: %.1f kfps %d frames in %.3f s%n", sent / s / 1e3, sent, s);
        }
    }

    private static void receive(String iface, double maxSeconds) throws IOException {
        try (AfPacketRawSocket socket = AfPacketRawSocket.open(iface, 9216, 64)) {
            long deadline = System.nanoTime() + (long) (maxSeconds * 1e9);
            long[] firstLast = {0, 0};
            long[] frames = {0};
            System.out.println("rx: ready");
            while (true) {
                long now = System.nanoTime();
                if (now > deadline || (frames[0] > 0 && now - firstLast[1] > 1_000_000_000L)) {
                    break;
                }
                socket.receive(f -> {
                    ByteBuffer b = ByteBuffer.wrap(f);
                    if (f.length > PAYLOAD && b.getShort(Ethernet.ETHER_TYPE) == 0x0800
                            && (b.getShort(UDP_DST_PORT) & 0xFFFF) == 4791) {
                        long t = System.nanoTime();
                        if (frames[0]++ == 0) {
                            firstLast[0] = t;
                        }
                        firstLast[1] = t;
                    }
                }, 64);
            }
            double s = Math.max(1e-9, (firstLast[1] - firstLast[0]) / 1e9);
            System.out.printf(Locale.ROOT, "rx: %.1f kfps %d frames in %.3f s drops-at-socket %d%n",
                    frames[0] / s / 1e3, frames[0], s, socket.droppedAtSocket());
        }
    }

    private static int ipv4(String text) throws IOException {
        InetAddress a = InetAddress.getByName(text);
        if (!(a instanceof Inet4Address)) {
            throw new IOException(text + " is not an IPv4 address");
        }
        return ByteBuffer.wrap(a.getAddress()).getInt();
    }
}
