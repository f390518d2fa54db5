package io.rocelab.sw.capture;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PacketDirection;
import java.io.IOException;
import java.util.List;

/**
 * A capture tap over the whole switch: one capture interface per port (pcapng), every frame
 * received (inbound) and sent (outbound), and a record with a comment for every decision worth
 * seeing in Wireshark: "ECN CE marked", "dropped: WRED", "dropped: buffer full",
 * "PFC XOFF prio 3 sent". For one port as classic pcap, give a pcap writer and a single port.
 *
 * <p>A write error never reaches the data path: the tap counts it and stops writing.
 */
public final class SwitchCapture {
    private final CaptureWriter writer;
    private final int[] interfaceIds;
    private final long epochOffsetNanos;
    private long errors;
    private boolean broken;

    /**
     * @param writer           the file writer (the tap does not close it)
     * @param portNames        one interface per name, in port order; null entries are not captured
     * @param speeds           line rate per port
     * @param epochOffsetNanos added to the switch clock to give capture timestamps
     * @throws IOException if the interfaces cannot be written
     */
    public SwitchCapture(CaptureWriter writer, List<String> portNames, long[] speeds, long epochOffsetNanos)
            throws IOException {
        this.writer = writer;
        this.epochOffsetNanos = epochOffsetNanos;
        this.interfaceIds = new int[portNames.size()];
        for (int i = 0; i < portNames.size(); i++) {
            interfaceIds[i] = portNames.get(i) == null ? -1
                : writer.addInterface(portNames.get(i), LinkType.ETHERNET, 0, speeds[i], "rocelab switch port");
        }
    }

    /** Records a frame on {@code port}; never releases it. */
    public void record(int port, long nowNanos, ByteBuf frame, String comment, boolean outbound) {
        if (broken || port < 0 || port >= interfaceIds.length || interfaceIds[port] < 0) {
            return;
        }
        try {
            writer.write(interfaceIds[port], nowNanos + epochOffsetNanos, frame, comment,
                outbound ? PacketDirection.OUTBOUND : PacketDirection.INBOUND);
        } catch (IOException | RuntimeException e) {
            errors++;
            broken = true;
        }
    }

    /** @return write errors (after the first, the tap stops) */
    public long errors() {
        return errors;
    }
}
