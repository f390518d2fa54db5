package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pause;
import io.rocelab.nic.egress.PfcStorm;
import io.rocelab.nic.stats.NicCounter;

/**
 * IEEE 802.3x link-level PAUSE (802.3 Annex 31B) at one {@link NicPort}, beside {@link PortPfc}.
 *
 * <p>Received: every PAUSE for us (to the MAC Control group or our MAC) is counted as mlx5 counts
 * it, {@code rx_pause_ctrl_phy}; a port in {@link FlowControlMode#PAUSE} then stops the whole
 * port, every priority, for its time at the link speed, after the same response bound as PFC
 * (the fabric's {@code PauseResponse}, IEEE 802.3 31B.3.7), a zero time resuming at once
 * ({@link io.rocelab.nic.egress.NicEgress#onPause}). A port in PFC mode does not act on it, as a
 * ConnectX port with PFC on and global pause off.
 *
 * <p>Sent: where a PFC port sends PFC (one frame, {@link SoftNic#sendPfc}, or a storm), a PAUSE
 * port sends one PAUSE with the longest time the PFC frame would have carried; each counts in
 * {@code tx_pause_ctrl_phy}.
 *
 * <p>Owner thread only.
 */
final class PortPause implements PortFlowControl {
    private final NicPort port;
    private final boolean honour;
    private PfcStorm storm;

    /** @param honour whether a received PAUSE stops the port (the port runs {@link FlowControlMode#PAUSE}) */
    PortPause(NicPort port, boolean honour) {
        this.port = port;
        this.honour = honour;
    }

    /** A PAUSE frame arrived (the parse told it from PFC by its opcode, 0x0001). */
    void onPause(ByteBuf frame, ParsedFrame f) {
        long dst = f.dstMac();
        if (dst != MacAddress.PAUSE_MULTICAST && dst != port.mac()) {
            port.counters.increment(NicCounter.DROP_NOT_FOR_US);
            return;
        }
        port.counters.increment(NicCounter.RX_PAUSE_CTRL_PHY);
        if (honour) {
            port.egress.onPause(Pause.quanta(frame, f.l3Offset()), port.nic.scheduler().nanoTime());
        }
    }

    @Override
    public void send(int cev, int[] quanta) {
        int longest = 0;
        for (int p = 0; p < quanta.length; p++) {
            if ((cev & (1 << p)) != 0) {
                longest = Math.max(longest, quanta[p]);
            }
        }
        send(longest);
    }

    /** Sends one PAUSE of {@code quanta} to the link partner, ahead of everything the port sends. */
    void send(int quanta) {
        if (port.nic.isClosed()) {
            return;
        }
        ByteBuf b = port.nic.alloc().buffer(Pause.FRAME_LENGTH);
        Pause.writeFrame(b, port.mac(), quanta);
        port.counters.increment(NicCounter.TX_PAUSE_CTRL_PHY);
        port.egress.sendMacControl(b);
    }

    /**
     * Keeps the link partner's whole port paused, as a stuck receiver would: PAUSE with the longest
     * time (65535 quanta), repeated at half of it. The priority is not on the wire (PAUSE names
     * none): a storm on any priority stops them all.
     */
    @Override
    public void startStorm(int priority) {
        long period = Math.max(1, io.rocelab.codec.header.Pfc.quantaToNanos(0xFFFF, port.pfcSpeed) / 2);
        stopStorm();
        storm = new PfcStorm(port.nic.agentScheduler(), () -> send(0xFFFF), period);
    }

    @Override
    public void stopStorm() {
        if (storm != null) {
            storm.stop();
            storm = null;
        }
    }
}
