package io.rocelab.fabric.raw;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.IntConsumer;

/**
 * The AF_PACKET backend: a raw packet socket bound to the interface, promiscuous, not receiving the
 * host's own transmissions ({@code PACKET_IGNORE_OUTGOING}, Linux 4.20+), through libc (JNA), on any
 * Java from 17.
 *
 * <p>Receive: a {@code PACKET_RX_RING} of {@code TPACKET_V2} frames mapped into this process. The
 * kernel copies each frame into the next free slot in the softirq that delivers it (on the sender's
 * core, for a veth) and marks it the user's; the receive thread reads slots without a system call
 * while there are any, and calls {@code poll} only when the ring is empty. V2, not V3: a V3 block is
 * handed over only when full or when its retire timer fires (1 ms at the least), where a V2 slot is
 * handed over as soon as it is written, which is the immediate delivery a switch needs. VLAN tags the
 * kernel took off into the packet's metadata (a NIC's or veth's VLAN offload) are put back from the
 * slot's header, so a frame is received as it was on the wire, PCP included.
 *
 * <p>Send: frames are gathered into a batch (a direct buffer's own memory, kept until then, or else
 * a copy in a slot of the socket's) and written with one {@code sendmmsg} on {@link #flush} (or
 * when the batch is full); {@link #send} writes one frame at once. The socket
 * bypasses the interface's queueing discipline ({@code PACKET_QDISC_BYPASS}), as a NIC driver's own
 * ring would.
 */
public final class AfPacketRawSocket implements RawSocket {
    private static final int POLL_TIMEOUT_MILLIS = 50;
    /** Receive ring: slots for this many frames of the largest size, in blocks of {@link #RING_BLOCK_BYTES}. */
    static final int RING_FRAMES = 4096;
    private static final int RING_BLOCK_BYTES = 128 << 10;
    /** Room in a slot before the frame: the tpacket2_hdr and sockaddr_ll, aligned (the kernel puts the frame at tp_mac, 66 for Ethernet). */
    private static final int SLOT_HEADROOM = 96;
    /** struct mmsghdr on 64-bit Linux: msghdr (56 bytes) then msg_len, padded to 64. */
    private static final int MMSGHDR = 64;
    private static final int IOVEC = 16;
    private static final int TP_STATUS_KERNEL = 0;
    private static final int TP_STATUS_USER = 0x1;
    private static final int TP_STATUS_VLAN_VALID = 0x10;
    private static final int TP_STATUS_VLAN_TPID_VALID = 0x40;
    private static final int ETH_P_8021Q = 0x8100;
    /** tp_status of a slot: read with acquire, handed back with release (the kernel's side of the ring). */
    private static final VarHandle STATUS = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final String iface;
    private final int fd;
    private final int slotBytes;
    private final int batch;
    private final Pointer ringBase;
    private final long ringBytes;
    private final ByteBuffer ring;
    /** The ring again, for copies into buffers on the receiving thread (its position and limit move). */
    private final ByteBuffer copyView;
    /** Where each of the ring's slots starts. */
    private final int[] slots;
    private int head;
    private final Memory pollFd = new Memory(8);
    private final Memory txHeaders;
    private final Memory txIovecs;
    private final Memory txData;
    private final ByteBuffer txHeaderView;
    private final ByteBuffer txIovecView;
    private final ByteBuffer txDataView;
    private final int[] txLengths;
    /** Where message {@code i} of the batch starts: plain pointers, made once (a JNA {@code share} is a Memory with a finalizer). */
    private final Pointer[] txHeaderAt;
    /** Frames whose own memory a queued message points at, until the flush. */
    private final ByteBuf[] txHeld;
    private final long txSlotAddress;
    private int txCount;
    private final Memory stats = new Memory(8);
    private final Memory statsLen = new Memory(4);
    private long drops;
    private long truncated;
    private volatile boolean closed;

    private AfPacketRawSocket(String iface, int fd, int slotBytes, int batch, Pointer ringBase, long ringBytes,
                              int[] slots) {
        this.iface = iface;
        this.fd = fd;
        this.slotBytes = slotBytes;
        this.batch = batch;
        this.ringBase = ringBase;
        this.ringBytes = ringBytes;
        this.ring = ringBase.getByteBuffer(0, ringBytes).order(ByteOrder.nativeOrder());
        this.slots = slots;
        this.copyView = ring.duplicate();
        pollFd.setInt(0, fd);
        pollFd.setShort(4, (short) LibC.POLLIN);
        pollFd.setShort(6, (short) 0);
        this.txHeaders = new Memory((long) MMSGHDR * batch);
        this.txIovecs = new Memory((long) IOVEC * batch);
        this.txData = new Memory((long) slotBytes * batch);
        this.txHeaderView = txHeaders.getByteBuffer(0, (long) MMSGHDR * batch).order(ByteOrder.nativeOrder());
        this.txIovecView = txIovecs.getByteBuffer(0, (long) IOVEC * batch).order(ByteOrder.nativeOrder());
        this.txDataView = txData.getByteBuffer(0, (long) slotBytes * batch);
        this.txLengths = new int[batch];
        this.txHeaderAt = new Pointer[batch];
        this.txHeld = new ByteBuf[batch];
        this.txSlotAddress = Pointer.nativeValue(txData);
        for (int i = 0; i < batch; i++) {
            txHeaderAt[i] = new Pointer(Pointer.nativeValue(txHeaders) + (long) MMSGHDR * i);
        }
        txHeaders.clear();
        // every message's buffer stays where it is: set once, only the lengths change per frame
        for (int i = 0; i < batch; i++) {
            txIovecs.setPointer((long) IOVEC * i, txData.share((long) slotBytes * i));
            long h = (long) MMSGHDR * i;
            txHeaders.setPointer(h + 16, txIovecs.share((long) IOVEC * i));
            txHeaders.setLong(h + 24, 1);
        }
    }

    /**
     * @param iface     the interface
     * @param maxFrame  the largest frame to receive whole (longer ones are counted as dropped)
     * @param batch     frames one receive may hand over, and one {@code sendmmsg} may write
     * @throws IOException naming the interface and the system's reason
     */
    public static AfPacketRawSocket open(String iface, int maxFrame, int batch) throws IOException {
        if (batch < 1) {
            throw new IllegalArgumentException("batch " + batch);
        }
        int index;
        int fd;
        try {
            index = LibC.if_nametoindex(iface);
            if (index == 0) {
                throw new IOException("cannot open " + iface + ": no such interface");
            }
            // protocol 0: receives nothing until bound to the interface, after the ring is set up
            fd = LibC.socket(LibC.AF_PACKET, LibC.SOCK_RAW, 0);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new IOException("cannot call libc for AF_PACKET: " + e.getMessage(), e);
        }
        if (fd < 0) {
            throw new IOException(LibC.lastError("cannot open a packet socket on " + iface
                + " (it needs root or CAP_NET_RAW)"));
        }
        Pointer ringBase = null;
        long ringBytes = 0;
        try {
            Memory one = new Memory(4);
            one.setInt(0, 1);
            check(LibC.setsockopt(fd, LibC.SOL_PACKET, LibC.PACKET_IGNORE_OUTGOING, one, 4), iface,
                "PACKET_IGNORE_OUTGOING (Linux 4.20+)");
            // not fatal: an older kernel queues as it did
            LibC.setsockopt(fd, LibC.SOL_PACKET, LibC.PACKET_QDISC_BYPASS, one, 4);
            Memory version = new Memory(4);
            version.setInt(0, LibC.TPACKET_V2);
            check(LibC.setsockopt(fd, LibC.SOL_PACKET, LibC.PACKET_VERSION, version, 4), iface, "TPACKET_V2");
            // room for a VLAN tag put back in front of the largest frame
            int slotBytes = maxFrame + 4;
            int frameSize = (slotBytes + SLOT_HEADROOM + 15) & ~15;
            int blockSize = RING_BLOCK_BYTES;
            while (blockSize < frameSize) {
                blockSize <<= 1;
            }
            int perBlock = blockSize / frameSize;
            int blocks = (RING_FRAMES + perBlock - 1) / perBlock;
            int frames = blocks * perBlock;
            // struct tpacket_req: block size, block count, frame size, frame count
            Memory req = new Memory(16);
            req.setInt(0, blockSize);
            req.setInt(4, blocks);
            req.setInt(8, frameSize);
            req.setInt(12, frames);
            check(LibC.setsockopt(fd, LibC.SOL_PACKET, LibC.PACKET_RX_RING, req, 16), iface, "PACKET_RX_RING");
            ringBytes = (long) blockSize * blocks;
            ringBase = LibC.mmap(null, ringBytes, LibC.PROT_READ | LibC.PROT_WRITE, LibC.MAP_SHARED, fd, 0);
            if (ringBase == null || Pointer.nativeValue(ringBase) == -1L) {
                ringBase = null;
                throw new IOException(LibC.lastError(iface + ": mmap of the receive ring"));
            }
            int[] slots = new int[frames];
            for (int i = 0; i < frames; i++) {
                slots[i] = (i / perBlock) * blockSize + (i % perBlock) * frameSize;
            }
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
            return new AfPacketRawSocket(iface, fd, slotBytes, batch, ringBase, ringBytes, slots);
        } catch (IOException | RuntimeException e) {
            if (ringBase != null) {
                LibC.munmap(ringBase, ringBytes);
            }
            LibC.close(fd);
            throw e;
        }
    }

    private static void check(int rc, String iface, String what) throws IOException {
        if (rc != 0) {
            throw new IOException(LibC.lastError(iface + ": " + what));
        }
    }

    @Override
    public int receive(FrameSink sink, int max) throws IOException {
        int handed = take(sink, max);
        if (handed > 0 || closed) {
            return handed;
        }
        // the ring is empty: wait for the kernel to fill a slot (poll returns at once if it has)
        if (LibC.poll(pollFd, 1, POLL_TIMEOUT_MILLIS) < 0) {
            int errno = Native.getLastError();
            if (errno == LibC.EINTR || closed) {
                return 0;
            }
            throw new IOException(iface + ": poll: " + LibC.strerror(errno));
        }
        return take(sink, max);
    }

    @Override
    public int readinessFd() {
        return fd;
    }

    @Override
    public int receiveNow(ByteBufAllocator alloc, BufferSink sink, int max) {
        int handed = 0;
        while (handed < max && !closed) {
            int s = slots[head];
            int status = (int) STATUS.getAcquire(ring, s);
            if ((status & TP_STATUS_USER) == 0) {
                break;
            }
            int len = ring.getInt(s + 4);
            int snap = ring.getInt(s + 8);
            int mac = s + (ring.getShort(s + 12) & 0xffff);
            ByteBuf frame = null;
            if (snap < len || len > slotBytes - 4) {
                truncated++;
            } else if ((status & TP_STATUS_VLAN_VALID) == 0 || len < 12) {
                frame = alloc.directBuffer(len);
                copyView.limit(mac + len).position(mac);
                frame.writeBytes(copyView);
            } else {
                frame = alloc.directBuffer(len + 4);
                copyView.limit(mac + 12).position(mac);
                frame.writeBytes(copyView);
                frame.writeInt(vlanTag(status, s));
                copyView.limit(mac + len).position(mac + 12);
                frame.writeBytes(copyView);
            }
            // the slot is the kernel's again
            STATUS.setRelease(ring, s, TP_STATUS_KERNEL);
            head = head + 1 == slots.length ? 0 : head + 1;
            if (frame != null) {
                sink.frame(frame);
                handed++;
            }
        }
        return handed;
    }

    /** @return TPID and TCI of the tag the kernel took off the frame in slot {@code s} */
    private int vlanTag(int status, int s) {
        int tci = ring.getShort(s + 24) & 0xffff;
        int tpid = ring.getShort(s + 26) & 0xffff;
        if ((status & TP_STATUS_VLAN_TPID_VALID) == 0 || tpid == 0) {
            tpid = ETH_P_8021Q;
        }
        return tpid << 16 | tci;
    }

    /** Hands over the frames in the ring's slots from {@link #head} on, at most {@code max}. */
    private int take(FrameSink sink, int max) {
        int handed = 0;
        while (handed < max) {
            int s = slots[head];
            int status = (int) STATUS.getAcquire(ring, s);
            if ((status & TP_STATUS_USER) == 0) {
                break;
            }
            int len = ring.getInt(s + 4);
            int snap = ring.getInt(s + 8);
            int mac = s + (ring.getShort(s + 12) & 0xffff);
            byte[] frame = null;
            if (snap < len || len > slotBytes - 4) {
                truncated++;
            } else if ((status & TP_STATUS_VLAN_VALID) == 0 || len < 12) {
                frame = new byte[len];
                ring.get(mac, frame, 0, len);
            } else {
                int tag = vlanTag(status, s);
                frame = new byte[len + 4];
                ring.get(mac, frame, 0, 12);
                frame[12] = (byte) (tag >>> 24);
                frame[13] = (byte) (tag >>> 16);
                frame[14] = (byte) (tag >>> 8);
                frame[15] = (byte) tag;
                ring.get(mac + 12, frame, 16, len - 12);
            }
            // the slot is the kernel's again
            STATUS.setRelease(ring, s, TP_STATUS_KERNEL);
            head = head + 1 == slots.length ? 0 : head + 1;
            if (frame != null) {
                sink.frame(frame);
                handed++;
            }
        }
        return handed;
    }

    @Override
    public synchronized void send(byte[] frame, int length) throws IOException {
        if (length > slotBytes) {
            throw new IOException(iface + ": frame of " + length + " bytes is over " + slotBytes);
        }
        flush(l -> { });
        txDataView.put(0, frame, 0, length);
        long rc = LibC.send(fd, txData, length, 0);
        if (rc != length) {
            throw new IOException(LibC.lastError(iface + ": send"));
        }
    }

    @Override
    public boolean batchesSends() {
        return true;
    }

    @Override
    public synchronized int queue(ByteBuf frame, int index, int length, IntConsumer sent) {
        if (length > slotBytes) {
            return 1;
        }
        int refused = txCount == batch ? flush(sent) : 0;
        if (frame.hasMemoryAddress()) {
            // the kernel copies straight from the frame's own memory, which is kept until the flush
            txIovecView.putLong(IOVEC * txCount, frame.memoryAddress() + index);
            txHeld[txCount] = frame.retain();
        } else {
            int at = slotBytes * txCount;
            txDataView.limit(at + length).position(at);
            frame.getBytes(index, txDataView);
            txDataView.clear();
            txIovecView.putLong(IOVEC * txCount, txSlotAddress + at);
        }
        txIovecView.putLong(IOVEC * txCount + 8, length);
        txLengths[txCount++] = length;
        if (txCount == batch) {
            refused += flush(sent);
        }
        return refused;
    }

    @Override
    public synchronized int flush(IntConsumer sent) {
        int n = txCount;
        txCount = 0;
        int refused = 0;
        int i = 0;
        while (i < n && !closed) {
            int rc = LibC.sendmmsg(fd, txHeaderAt[i], n - i, 0);
            if (rc <= 0) {
                // the first frame of the rest was refused: count it and go on with the others
                refused++;
                i++;
                continue;
            }
            for (int k = i; k < i + rc; k++) {
                sent.accept(txLengths[k]);
            }
            i += rc;
        }
        for (int k = 0; k < n; k++) {
            if (txHeld[k] != null) {
                txHeld[k].release();
                txHeld[k] = null;
            }
        }
        return refused + (n - i);
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
    public synchronized void close() {
        if (!closed) {
            closed = true;
            flush(l -> { });
            LibC.munmap(ringBase, ringBytes);
            LibC.close(fd);
        }
    }

    @Override
    public String describe() {
        return "af_packet " + iface + " (TPACKET_V2 ring of " + slots.length + " frames, sendmmsg batches of "
            + batch + ")";
    }
}
