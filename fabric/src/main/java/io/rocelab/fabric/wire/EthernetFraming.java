package io.rocelab.fabric.wire;

/**
 * The bytes an Ethernet frame occupies on the wire beyond what a {@link io.rocelab.fabric.port.FramePort}
 * carries, per IEEE 802.3.
 *
 * <p>Why it matters: at 100 Gb/s a 64-byte RoCE ACK costs 84 byte times on the wire, not 60, so
 * packet rates, queue drain times and PFC pause quanta are wrong by a third without it.
 *
 * <p>Ports carry frames from the destination MAC up to, not including, the FCS. On the wire each
 * frame also has:
 * <ul>
 *   <li>the FCS, 4 octets (IEEE 802.3 clause 3.2.9);</li>
 *   <li>the preamble (7 octets) and the start frame delimiter (1 octet) (clauses 3.2.1, 3.2.2; at
 *       10 Gb/s and above the first preamble octet becomes the /S/ start control character of the
 *       reconciliation sublayer, but still takes 8 octet times);</li>
 *   <li>the minimum inter-packet gap, 96 bit times = 12 octets (clause 4.4.2, {@code interPacketGap});
 *       faster PHYs may shrink single gaps (deficit idle count, clause 46.3.1.4) but average 12;</li>
 *   <li>padding of short frames up to {@code minFrameSize}, 512 bits = 64 octets including the FCS
 *       (clause 4.4.2), i.e. 60 octets without it.</li>
 * </ul>
 * So the default overhead is 4 + 8 + 12 = 24 bytes per frame, after padding to 60.
 */
public final class EthernetFraming {

    /** Frame check sequence: a CRC-32, IEEE 802.3 clause 3.2.9. */
    public static final int FCS_BYTES = 4;

    /** Preamble (7) and start frame delimiter (1), IEEE 802.3 clauses 3.2.1 and 3.2.2. */
    public static final int PREAMBLE_AND_SFD_BYTES = 8;

    /** Minimum inter-packet gap, 96 bit times, IEEE 802.3 clause 4.4.2. */
    public static final int INTER_PACKET_GAP_BYTES = 12;

    /** {@code minFrameSize} (64 octets, clause 4.4.2) less the FCS: shorter frames are padded. */
    public static final int MIN_FRAME_BYTES = 60;

    /** Everything a frame costs on the wire besides its own bytes: FCS + preamble + SFD + gap. */
    public static final int DEFAULT_OVERHEAD_BYTES = FCS_BYTES + PREAMBLE_AND_SFD_BYTES + INTER_PACKET_GAP_BYTES;

    private EthernetFraming() {
    }

    /**
     * @param frameBytes    the frame's length without FCS
     * @param minFrameBytes shorter frames are padded to this length (0 disables padding)
     * @param overheadBytes added to every frame
     * @return the octet times the frame occupies on the wire
     */
    public static long wireBytes(int frameBytes, int minFrameBytes, int overheadBytes) {
        return (long) Math.max(frameBytes, minFrameBytes) + overheadBytes;
    }
}
