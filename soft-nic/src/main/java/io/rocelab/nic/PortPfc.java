package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.nic.egress.PfcCounters;
import io.rocelab.nic.egress.PfcStorm;
import io.rocelab.nic.stats.NicCounter;

/**
 * PFC (IEEE 802.1Qbb) at one {@link NicPort}, as the port's MAC does it: a PFC frame received for
 * the port pauses the priorities it names that have PFC enabled (the port's DCB settings,
 * {@link io.rocelab.nic.dcb.NicDcb#pfcEnable}) in the port's egress ({@link
 * io.rocelab.nic.egress.NicEgress#onPfc}, mlx5's {@code rx_prio<N>_pause*} counters); the port
 * sends PFC frames of its own ({@code tx_prio<N>_pause}), one at a time ({@link SoftNic#sendPfc})
 * or as a storm ({@link SoftNic#startPfcStorm}: the rogue host that keeps a priority paused).
 *
 * <p>Owner thread only.
 */
final class PortPfc implements PortFlowControl {
    /** A PFC frame is padded to the 60-byte minimum: 14 + 20 + 26. */
    private static final int PFC_PADDING = 26;

    private final NicPort port;
    private PfcStorm storm;

    PortPfc(NicPort port) {
        this.port = port;
    }

    /** A PFC frame for us (to the MAC control group, or our MAC): the egress pauses its priorities. */
    void onPfc(ByteBuf frame, ParsedFrame f) {
        long dst = f.dstMac();
        if (dst != MacAddress.PAUSE_MULTICAST && dst != port.mac()) {
            port.counters.increment(NicCounter.DROP_NOT_FOR_US);
            return;
        }
        if (frame.readableBytes() < f.l3Offset() + Pfc.LENGTH) {
            port.counters.increment(NicCounter.DROP_MALFORMED);
            return;
        }
        // IEEE 802.1Qbb (802.1Q-2014 clause 36): a priority acts on PFC only where PFC is enabled for it (mlnx_qos --pfc,
        // or what DCBX adopted); the others are counted and go on. A port running 802.3x PAUSE has PFC on no
        // priority (mlx5 refuses global pause beside PFC): it counts PFC frames and acts on none.
        int enabled = port.flowControl == this ? port.nic.dcb().pfcEnable(port.number()) : 0;
        port.egress.onPfc(frame, f.l3Offset(), port.nic.scheduler().nanoTime(), enabled);
    }

    /**
     * Sends one PFC frame to the link partner, ahead of everything the port sends. It names the
     * priorities it is given, whatever the port's PFC enable vector: it is what a lab injects (a host
     * whose buffer is full, a rogue host), not the NIC's own receive buffer, which rocelab's NIC does
     * not model.
     */
    @Override
    public void send(int cev, int[] quanta) {
        if (port.nic.isClosed()) {
            return;
        }
        ByteBuf b = port.nic.alloc().buffer(Ethernet.LENGTH + Pfc.LENGTH + PFC_PADDING);
        b.writerIndex(Ethernet.LENGTH + Pfc.LENGTH + PFC_PADDING);
        b.setZero(0, b.writerIndex());
        Ethernet.write(b, 0, MacAddress.PAUSE_MULTICAST, port.mac(), EtherType.MAC_CONTROL);
        Pfc.write(b, Ethernet.LENGTH, cev, quanta);
        for (int p = 0; p < Pfc.PRIORITIES; p++) {
            if ((cev & (1 << p)) != 0) {
                port.counters.increment(PfcCounters.txPause(p));
            }
        }
        port.egress.sendMacControl(b);
    }

    /**
     * Starts pausing priority {@code priority} of the link partner with the longest pause time
     * (65535 quanta), repeated at half of it, as a stuck receiver's PFC generator refreshes its
     * XOFF, until {@link #stopStorm()}; a storm already running is replaced.
     */
    @Override
    public void startStorm(int priority) {
        int[] quanta = new int[Pfc.PRIORITIES];
        quanta[priority] = 0xFFFF;
        long period = Math.max(1, Pfc.quantaToNanos(0xFFFF, port.pfcSpeed) / 2);
        stopStorm();
        storm = new PfcStorm(port.nic.agentScheduler(), () -> send(1 << priority, quanta), period);
    }

    /** Stops the storm, if one runs; the partner resumes when the last pause runs out. */
    @Override
    public void stopStorm() {
        if (storm != null) {
            storm.stop();
            storm = null;
        }
    }
}
