package io.rocelab.sw.capture;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PacketDirection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A capture tap on the switch's ports. Two shapes, as docs/design.md §6 asks:
 * <ul>
 *   <li>{@link #wholeSwitch whole switch} (pcapng): one capture interface per port, every frame
 *       received (inbound) and sent (outbound), and a record with a comment for every decision
 *       worth seeing in Wireshark: "ECN CE marked", "dropped: WRED", "dropped: buffer full",
 *       "PFC XOFF prio 3 sent". A dropped frame is recorded on its egress port with the reason.</li>
 *   <li>{@link #onePort one port} (classic pcap, which has one interface and no comments): exactly
 *       what crossed that port's wire in either direction, as tcpdump on the cable would see it.
 *       Dropped frames never reached the wire, so they are left out rather than shown as sent.</li>
 * </ul>
 *
 * <p>A write error never reaches the data path: the tap counts it and stops writing.
 */
public final class SwitchCapture {
    private final CaptureWriter writer;
    private final int[] interfaceIds;
    private final long epochOffsetNanos;
    private final boolean wireOnly;
    private long errors;
    private boolean broken;

    /**
     * A whole-switch tap; same as {@link #wholeSwitch}.
     *
     * @param writer           the file writer (the tap does not close it)
     * @param portNames        one interface per name, in port order; null entries are not captured
     * @param speeds           line rate per port
     * @param epochOffsetNanos added to the switch clock to give capture timestamps
     * @throws IOException if the interfaces cannot be written
     */
    public SwitchCapture(CaptureWriter writer, List<String> portNames, long[] speeds, long epochOffsetNanos)
            throws IOException {
        this(writer, portNames, speeds, epochOffsetNanos, false);
    }

    private SwitchCapture(CaptureWriter writer, List<String> portNames, long[] speeds, long epochOffsetNanos,
                          boolean wireOnly) throws IOException {
        this.writer = writer;
        this.epochOffsetNanos = epochOffsetNanos;
        this.wireOnly = wireOnly;
        this.interfaceIds = new int[portNames.size()];
        for (int i = 0; i < portNames.size(); i++) {
            interfaceIds[i] = portNames.get(i) == null ? -1
                : writer.addInterface(portNames.get(i), LinkType.ETHERNET, 0, speeds[i], "rocelab switch port");
        }
    }

    /** @return a tap recording every port into one pcapng file, with decisions as packet comments */
    public static SwitchCapture wholeSwitch(CaptureWriter writer, List<String> portNames, long[] speeds,
                                            long epochOffsetNanos) throws IOException {
        return new SwitchCapture(writer, portNames, speeds, epochOffsetNanos, false);
    }

    /**
     * @param writer    usually a {@code PcapWriter}; its single interface is this port
     * @param port      the port's index
     * @param portCount the switch's number of ports
     * @return a tap recording only what crossed the wire of {@code port}
     */
    public static SwitchCapture onePort(CaptureWriter writer, int port, int portCount, String name, long speed,
                                        long epochOffsetNanos) throws IOException {
        List<String> names = new ArrayList<>(Collections.nCopies(portCount, (String) null));
        names.set(port, name);
        long[] speeds = new long[portCount];
        speeds[port] = speed;
        return new SwitchCapture(writer, names, speeds, epochOffsetNanos, true);
    }

    /**
     * Records a frame on {@code port}; never releases it.
     *
     * @param onWire false for a frame the switch dropped (recorded by whole-switch taps only)
     */
    public void record(int port, long nowNanos, ByteBuf frame, String comment, boolean outbound, boolean onWire) {
        if (broken || (wireOnly && !onWire) || port < 0 || port >= interfaceIds.length || interfaceIds[port] < 0) {
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

    /** Records a frame that crossed the wire of {@code port}; never releases it. */
    public void record(int port, long nowNanos, ByteBuf frame, String comment, boolean outbound) {
        record(port, nowNanos, frame, comment, outbound, true);
    }

    /** @return write errors (after the first, the tap stops) */
    public long errors() {
        return errors;
    }
}
