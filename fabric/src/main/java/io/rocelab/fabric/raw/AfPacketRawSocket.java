package io.rocelab.fabric.raw;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The AF_PACKET backend: a raw packet socket bound to the interface, promiscuous, not receiving the
 * host's own transmissions ({@code PACKET_IGNORE_OUTGOING}, Linux 4.20+), receiving in batches
 * with {@code recvmmsg} (one system call for every frame waiting, up to the batch) and sending
 * with {@code send}, through libc (JNA), on any Java from 17. VLAN tags the kernel took off into
 * the packet's metadata (a NIC's or veth's VLAN offload) are put back from {@code PACKET_AUXDATA},
 * so a frame is received as it was on the wire, PCP included.
 */
public final class AfPacketRawSocket implements RawSocket {
    private static final int POLL_TIMEOUT_MILLIS = 50;
    private static final int RECEIVE_BUFFER_BYTES = 16 << 20;
    /** struct mmsghdr on 64-bit Linux: msghdr (56 bytes) then msg_len, padded to 64. */
    private static final int MMSGHDR = 64;
    private static final int IOVEC = 16;
    /** CMSG_SPACE(sizeof(struct tpacket_auxdata)): a 16-byte header and 20 bytes padded to 24. */
    private static final int CONTROL = 40;
    private static final int TP_STATUS_VLAN_VALID = 0x10;
    private static final int TP_STATUS_VLAN_TPID_VALID = 0x40;
    private static final int ETH_P_8021Q = 0x8100;

    private final String iface;
    private final int fd;
    private final int slotBytes;
    private final int batch;
    private final Memory headers;
    private final Memory iovecs;
    private final Memory controls;
    private final Memory data;
    private final Memory sendBuffer;
    /** The receive slots and the send buffer as direct buffers: Java's own copies, no JNI call per frame. */
    private final ByteBuffer dataView;
    private final ByteBuffer sendView;
    private final Memory stats = new Memory(8);
    private final Memory statsLen = new Memory(4);
    private long drops;
    private long truncated;
    private volatile boolean closed;

    private AfPacketRawSocket(String iface, int fd, int slotBytes, int batch) {
        this.iface = iface;
        this.fd = fd;
        this.slotBytes = slotBytes;
        this.batch = batch;
        this.headers = new Memory((long) MMSGHDR * batch);
        this.iovecs = new Memory((long) IOVEC * batch);
        this.controls = new Memory((long) CONTROL * batch);
        this.data = new Memory((long) slotBytes * batch);
        this.sendBuffer = new Memory(slotBytes);
        this.dataView = data.getByteBuffer(0, (long) slotBytes * batch);
        this.sendView = sendBuffer.getByteBuffer(0, slotBytes);
        headers.clear();
        // every message's buffers stay where they are: set once, only the lengths the kernel
        // rewrites are reset before each receive
        for (int i = 0; i < batch; i++) {
            iovecs.setPointer((long) IOVEC * i, data.share((long) slotBytes * i));
            iovecs.setLong((long) IOVEC * i + 8, slotBytes);
            long h = (long) MMSGHDR * i;
            headers.setPointer(h + 16, iovecs.share((long) IOVEC * i));
            headers.setLong(h + 24, 1);
            headers.setPointer(h + 32, controls.share((long) CONTROL * i));
        }
    }

    /**
     * @param iface     the interface
     * @param maxFrame  the largest frame to receive whole (longer ones are counted as dropped)
     * @param batch     frames one receive may hand over
     * @throws IOException naming the interface and the system's reason
     */
    public static AfPacketRawSocket open(String iface, int maxFrame, int batch) throws IOException {
        int index;
        int fd;
        try {
            index = LibC.if_nametoindex(iface);
            if (index == 0) {
                throw new IOException("cannot open " + iface + ": no such interface");
            }
            fd = LibC.socket(LibC.AF_PACKET, LibC.SOCK_RAW, LibC.ETH_P_ALL_BE);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new IOException("cannot call libc for AF_PACKET: " + e.getMessage(), e);
        }
        if (fd < 0) {
            throw new IOException(LibC.lastError("cannot open a packet socket on " + iface
                + " (it needs root or CAP_NET_RAW)"));
        }
        try {
            Memory one = new Memory(4);
            one.setInt(0, 1);
            check(LibC.setsockopt(fd, LibC.SOL_PACKET, LibC.PACKET_IGNORE_OUTGOING, one, 4), iface,
                "PACKET_IGNORE_OUTGOING (Linux 4.20+)");
            check(LibC.setsockopt(fd, LibC.SOL_PACKET, LibC.PACKET_AUXDATA, one, 4), iface, "PACKET_AUXDATA");
            Memory buf = new Memory(4);
            buf.setInt(0, RECEIVE_BUFFER_BYTES);
            if (LibC.setsockopt(fd, LibC.SOL_SOCKET, LibC.SO_RCVBUFFORCE, buf, 4) != 0) {
                LibC.setsockopt(fd, LibC.SOL_SOCKET, LibC.SO_RCVBUF, buf, 4);
            }
            Memory timeout = new Memory(16);
            timeout.setLong(0, 0);
            timeout.setLong(8, POLL_TIMEOUT_MILLIS * 1000L);
            check(LibC.setsockopt(fd, LibC.SOL_SOCKET, LibC.SO_RCVTIMEO, timeout, 16), iface, "SO_RCVTIMEO");
            // struct sockaddr_ll: family, protocol (network order), ifindex, hatype, pkttype, halen, addr[8]
            Memory sll = new Memory(20);
            sll.clear();
            sll.setShort(0, (short) LibC.AF_PACKET);
            sll.setShort(2, (short) LibC.ETH_P_ALL_BE);
            sll.setInt(4, index);
            check(LibC.bind(fd, sll, 20), iface, "bind");
            // struct packet_mreq: ifindex, type, alen, address[8]
            Memory mreq = new Memory(16);
            mreq.clear();
            mreq.setInt(0, index);
            mreq.setShort(4, (short) LibC.PACKET_MR_PROMISC);
            check(LibC.setsockopt(fd, LibC.SOL_PACKET, LibC.PACKET_ADD_MEMBERSHIP, mreq, 16), iface, "promiscuous mode");
        } catch (IOException e) {
            LibC.close(fd);
            throw e;
        }
        // room for a VLAN tag put back in front of the largest frame
        return new AfPacketRawSocket(iface, fd, maxFrame + 4, batch);
    }

    private static void check(int rc, String iface, String what) throws IOException {
        if (rc != 0) {
            throw new IOException(LibC.lastError(iface + ": " + what));
        }
    }

    @Override
    public int receive(FrameSink sink, int max) throws IOException {
        int n = Math.min(max, batch);
        for (int i = 0; i < n; i++) {
            long h = (long) MMSGHDR * i;
            headers.setLong(h + 40, CONTROL);
            headers.setInt(h + 48, 0);
        }
        int got = LibC.recvmmsg(fd, headers, n, LibC.MSG_WAITFORONE, null);
        if (got < 0) {
            int errno = Native.getLastError();
            if (errno == LibC.EAGAIN || errno == LibC.EINTR || closed) {
                return 0;
            }
            throw new IOException(iface + ": recvmmsg: " + LibC.strerror(errno));
        }
        int handed = 0;
        for (int i = 0; i < got; i++) {
            long h = (long) MMSGHDR * i;
            int len = headers.getInt(h + 56);
            if ((headers.getInt(h + 48) & LibC.MSG_TRUNC) != 0 || len > slotBytes - 4) {
                truncated++;
                continue;
            }
            long vlan = vlanTag(i);
            int base = slotBytes * i;
            byte[] frame;
            if (vlan < 0 || len < 12) {
                frame = new byte[len];
                dataView.get(base, frame, 0, len);
            } else {
                frame = new byte[len + 4];
                dataView.get(base, frame, 0, 12);
                frame[12] = (byte) (vlan >>> 24);
                frame[13] = (byte) (vlan >>> 16);
                frame[14] = (byte) (vlan >>> 8);
                frame[15] = (byte) vlan;
                dataView.get(base + 12, frame, 16, len - 12);
            }
            sink.frame(frame);
            handed++;
        }
        return handed;
    }

    /** @return TPID and TCI of a tag the kernel took off message {@code i} (32 bits), or -1 */
    private long vlanTag(int i) {
        long h = (long) MMSGHDR * i;
        long controlLen = headers.getLong(h + 40);
        long c = (long) CONTROL * i;
        if (controlLen < 16 + 20 || controls.getInt(c + 8) != LibC.SOL_PACKET
            || controls.getInt(c + 12) != LibC.PACKET_AUXDATA) {
            return -1;
        }
        int status = controls.getInt(c + 16);
        int tci = controls.getShort(c + 16 + 16) & 0xffff;
        int tpid = controls.getShort(c + 16 + 18) & 0xffff;
        if ((status & TP_STATUS_VLAN_VALID) == 0) {
            return -1;
        }
        if ((status & TP_STATUS_VLAN_TPID_VALID) == 0 || tpid == 0) {
            tpid = ETH_P_8021Q;
        }
        return (long) tpid << 16 | tci;
    }

    @Override
    public synchronized void send(byte[] frame, int length) throws IOException {
        if (length > slotBytes) {
            throw new IOException(iface + ": frame of " + length + " bytes is over " + slotBytes);
        }
        sendView.put(0, frame, 0, length);
        long rc = LibC.send(fd, sendBuffer, length, 0);
        if (rc != length) {
            throw new IOException(LibC.lastError(iface + ": send"));
        }
    }

    @Override
    public long droppedAtSocket() {
        // PACKET_STATISTICS resets the kernel's counters on each read: add them up here
        statsLen.setInt(0, 8);
        if (!closed && LibC.getsockopt(fd, LibC.SOL_PACKET, LibC.PACKET_STATISTICS, stats, statsLen) == 0) {
            drops += stats.getInt(4) & 0xffffffffL;
        }
        return drops + truncated;
    }

    @Override
    public void wakeUp() {
        // a receive returns within its poll timeout on its own
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            LibC.close(fd);
        }
    }

    @Override
    public String describe() {
        return "af_packet " + iface + " (recvmmsg batches of " + batch + ")";
    }
}
