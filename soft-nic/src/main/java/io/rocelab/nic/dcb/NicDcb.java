package io.rocelab.nic.dcb;

import io.rocelab.codec.lldp.Dcbx;

/**
 * A NIC's DCB state per port and the two calls its LLDP agent makes: what DCBX content to advertise
 * on a port, and what the link partner advertised. Owner thread only.
 */
public final class NicDcb {
    /**
     * The DCBX TLVs the NIC's LLDP agent puts in the LLDPDUs of port {@code port} (1 or 2): its willing
     * bit and its operational configuration; {@link Dcbx#NONE} to send none.
     */
    public Dcbx advertised(int port) {
        return Dcbx.NONE;
    }

    /** The link partner of port {@code port} advertised {@code peer} (its LLDPDU's DCBX TLVs, maybe {@link Dcbx#NONE}). */
    public void onPeer(int port, Dcbx peer) {
    }

    /** The link partner of port {@code port} is no longer heard (its LLDP information aged out, or the link went down). */
    public void onPeerGone(int port) {
    }
}
