package io.rocelab.fabric.raw;

import java.io.IOException;
import java.util.Locale;

/** How a {@link RawEthernetPort} talks to its interface. */
public enum RawBackend {
    /** AF_PACKET through libc: batched receive ({@code recvmmsg}); Linux only. */
    AF_PACKET,
    /** libpcap through pcap4j. */
    PCAP,
    /** AF_PACKET where it opens, else libpcap. */
    AUTO;

    /** Frames one receive of the AF_PACKET backend may hand over. */
    static final int BATCH = 64;

    /**
     * @param maxFrame the largest frame received whole
     * @throws IOException naming the interface and why it cannot be opened (for AUTO: libpcap's reason,
     *                     after AF_PACKET's)
     */
    RawSocket open(String iface, int maxFrame) throws IOException {
        switch (this) {
            case AF_PACKET:
                return AfPacketRawSocket.open(iface, maxFrame, BATCH);
            case PCAP:
                return PcapRawSocket.open(iface, null, maxFrame);
            default:
                try {
                    return AfPacketRawSocket.open(iface, maxFrame, BATCH);
                } catch (IOException e) {
                    try {
                        return PcapRawSocket.open(iface, null, maxFrame);
                    } catch (IOException p) {
                        p.addSuppressed(e);
                        throw new IOException(e.getMessage() + "; libpcap: " + p.getMessage(), p);
                    }
                }
        }
    }

    /**
     * @param text {@code af_packet}, {@code pcap} or {@code auto}, any case
     * @throws IllegalArgumentException naming the choices
     */
    public static RawBackend parse(String text) {
        try {
            return valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not a raw backend: af_packet, pcap or auto");
        }
    }
}
