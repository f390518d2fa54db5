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
 * sending.
 */
public final class PcapRawSocket implements RawSocket {
    /** How long a receive waits for a frame before it returns none (so a close is seen soon). */
    private static final int POLL_TIMEOUT_MILLIS = 50;
    /** libpcap's ring: room for bursts while the owner catches up. */
    private static final int BUFFER_BYTES = 16 << 20;
    private static final int SNAPLEN = 65_535;

    private final String iface;
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
        PcapHandle h;
        try {
            h = new PcapHandle.Builder(iface).snaplen(SNAPLEN).promiscuousMode(PromiscuousMode.PROMISCUOUS)
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

    @Override
    public int receive(FrameSink sink, int max) throws IOException {
        try {
            int n = handle.dispatch(max, (org.pcap4j.core.RawPacketListener) sink::frame);
            return Math.max(n, 0);
        } catch (InterruptedException e) {
            // pcap_breakloop: woken up
            return 0;
        } catch (PcapNativeException | NotOpenException e) {
            throw new IOException(iface + ": " + e.getMessage(), e);
        }
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
            return s.getNumPacketsDropped();
        } catch (PcapNativeException | NotOpenException e) {
            return 0;
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
