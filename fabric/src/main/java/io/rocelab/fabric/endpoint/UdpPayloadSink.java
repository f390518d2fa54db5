package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;

/**
 * A port that carries RoCEv2 packets as UDP payloads (BTH to ICRC) and lets the NIC write each one
 * where it leaves from: in the buffer that goes to the kernel as one GSO send, instead of in a frame
 * of its own whose payload the port would then copy there. The Ethernet, IPv4 and UDP headers of such
 * a packet are never written; the NIC computes its ICRC over the pseudo header the receiver rebuilds.
 *
 * <p>Protocol, on the port's owner thread only: {@link #claim} space for one packet, write it, then
 * {@link #commit()} it (it is sent with the next flush) or {@link #abort()} it (the space is given
 * back). At most one claim is open at a time; a claim that is neither committed nor aborted is taken
 * back by the next claim. The buffer stays the port's: the NIC never releases it.
 */
public interface UdpPayloadSink {

    /**
     * Space for the UDP payload of one packet, or {@code null} when the port cannot take payloads
     * now (called off its owner thread, closed, segmentation offload unavailable or turned off, a
     * source address other than the port's, an identification other than the one the receiver
     * rebuilds, a length it does not send); the caller then builds a frame and sends it as usual,
     * and the port counts why it drops it, if it does.
     *
     * @param srcIp   the packet's IPv4 source (must be the port's address)
     * @param srcPort the QP's UDP source port
     * @param dstIp   the IPv4 destination (the packet goes to its port 4791)
     * @param ipId    the IPv4 identification in the packet's ICRC pseudo header (with DF)
     * @param length  the UDP payload length, BTH to ICRC
     * @return a buffer whose bytes {@code [writerIndex - length, writerIndex)} are the caller's to
     *         write until {@link #commit()} or {@link #abort()}
     */
    ByteBuf claim(int srcIp, int srcPort, int dstIp, int ipId, int length);

    /** The open claim is a finished packet: it leaves with the next flush. */
    void commit();

    /** The open claim is given back unsent. */
    void abort();
}
