package io.rocelab.fabric.raw;

import java.io.IOException;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.PcapStat;
import org.pcap4j.core.Pcaps;

/**
 * The libpcap backend (through pcap4j): a promiscuous capture of the interface in immediate mode
 * (each frame is handed over as it arrives, not after libpcap's buffer timeout), direction IN (the
 * frames this host sends on the interface are not received back), and {@code pcap_sendpacket} for
 * sending. On an owner's epoll loop the port reads it there, through libpcap's selectable
 * descriptor, without a thread of its own.
 */
public final class PcapRawSocket implements RawSocket {
    /** How long a receive waits for a frame before it returns none (so a close is seen soon). */
    private static final int POLL_TIMEOUT_MILLIS = 50;
    /** libpcap's ring: room for bursts while the owner catches up. */
    private static final int BUFFER_BYTES = 16 << 20;
    private static final int SNAPLEN = 65_535;
    /** Frames longer than the snapshot length, which libpcap cut: dropped, not handed over. */
    private long truncated;

    private final String iface;
    /** libpcap's selectable descriptor once it reads without waiting (on an owner's loop), else -1. */
    private int selectableFd = -1;
    private final com.sun.jna.Memory pollFd = new com.sun.jna.Memory(8);
    private final PcapHandle handle;
    private final String version;

    private PcapRawSocket(String iface, PcapHandle handle) {
        this.iface = iface;
        this.handle = handle;
        this.version = Pcaps.libVersion();
    }

    /**
     * @param iface  the interface, e.g. {@code veth0}
     * @param filter a BPF filter expression (tcpdump's syntax) or null for every frame
     * @throws IOException naming the interface and libpcap's reason (no such device, no permission)
     */
    public static PcapRawSocket open(String iface, String filter) throws IOException {
        return open(iface, filter, SNAPLEN);
    }

    /**
     * The same receiving frames up to {@code maxFrame} bytes (and a VLAN tag) whole, longer ones
     * counted as dropped: libpcap's ring has a slot of the snapshot length per frame, so a snapshot
     * of the largest frame instead of 64 KB holds seven times the frames in the same memory.
     */
    public static PcapRawSocket open(String iface, String filter, int maxFrame) throws IOException {
        PcapHandle h;
        try {
            h = new PcapHandle.Builder(iface).snaplen(Math.min(SNAPLEN, maxFrame + 4)).promiscuousMode(PromiscuousMode.PROMISCUOUS)
                .timeoutMillis(POLL_TIMEOUT_MILLIS).bufferSize(BUFFER_BYTES).immediateMode(true).build();
        } catch (PcapNativeException e) {
            throw new IOException("cannot open " + iface + ": " + e.getMessage(), e);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new IOException("cannot load libpcap (install libpcap0.8): " + e.getMessage(), e);
        }
        try {
            h.setDirection(PcapHandle.PcapDirection.IN);
            if (filter != null) {
                h.setFilter(filter, org.pcap4j.core.BpfProgram.BpfCompileMode.OPTIMIZE);
            }
        } catch (PcapNativeException | NotOpenException e) {
            h.close();
            throw new IOException(iface + ": " + e.getMessage(), e);
        }
        return new PcapRawSocket(iface, h);
    }

    /**
     * libpcap's own descriptor (its packet socket, {@code pcap_get_selectable_fd}), with the handle
     * switched to non-blocking reads, so an event loop can wait on it; -1 if libpcap or pcap4j do not
     * give it (the port then keeps its receive thread).
     */
    @Override
    public synchronized int readinessFd() {
        if (selectableFd < 0) {
            try {
                java.lang.reflect.Field f = PcapHandle.class.getDeclaredField("handle");
                f.setAccessible(true);
                int fd = LibPcap.pcap_get_selectable_fd((com.sun.jna.Pointer) f.get(handle));
                if (fd >= 0) {
                    handle.setBlockingMode(PcapHandle.BlockingMode.NONBLOCKING);
                    pollFd.setInt(0, fd);
                    pollFd.setShort(4, (short) LibC.POLLIN);
                    selectableFd = fd;
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError | PcapNativeException
                     | NotOpenException e) {
                return -1;
            }
        }
        return selectableFd;
    }

    @Override
    public int receiveNow(io.netty.buffer.ByteBufAllocator alloc, BufferSink sink, int max) {
        try {
            int n = handle.dispatch(max, (org.pcap4j.core.RawPacketListener) b -> {
                if (whole(b)) {
                    sink.frame(io.netty.buffer.Unpooled.wrappedBuffer(b));
                }
            });
            return Math.max(n, 0);
        } catch (InterruptedException | PcapNativeException | NotOpenException e) {
            return 0;
        }
    }

    @Override
    public int receive(FrameSink sink, int max) throws IOException {
        if (selectableFd >= 0 && LibC.poll(pollFd, 1, POLL_TIMEOUT_MILLIS) <= 0) {
            // non-blocking reads (the loop gave the socket back to a thread): wait here instead
            return 0;
        }
        try {
            int n = handle.dispatch(max, (org.pcap4j.core.RawPacketListener) b -> {
                if (whole(b)) {
                    sink.frame(b);
                }
            });
            return Math.max(n, 0);
        } catch (InterruptedException e) {
            // pcap_breakloop: woken up
            return 0;
        } catch (PcapNativeException | NotOpenException e) {
            throw new IOException(iface + ": " + e.getMessage(), e);
        }
    }

    /** @return whether the frame just captured is whole; counts it if libpcap cut it */
    private boolean whole(byte[] captured) {
        Integer original = handle.getOriginalLength();
        if (original != null && original > captured.length) {
            truncated++;
            return false;
        }
        return true;
    }

    @Override
    public void send(byte[] frame, int length) throws IOException {
        try {
            handle.sendPacket(frame, length);
        } catch (PcapNativeException | NotOpenException e) {
            throw new IOException(iface + ": " + e.getMessage(), e);
        }
    }

    @Override
    public long droppedAtSocket() {
        try {
            PcapStat s = handle.getStats();
            return s.getNumPacketsDropped() + truncated;
        } catch (PcapNativeException | NotOpenException e) {
            return truncated;
        }
    }

    @Override
    public void wakeUp() {
        try {
            handle.breakLoop();
        } catch (NotOpenException e) {
            // closed already
        }
    }

    @Override
    public void close() {
        handle.close();
    }

    @Override
    public String describe() {
        return "pcap " + iface + " (" + version + ")";
    }
}
