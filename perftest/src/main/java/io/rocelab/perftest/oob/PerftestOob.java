package io.rocelab.perftest.oob;

import io.rocelab.perftest.Mtu;
import java.io.Closeable;
import java.io.IOException;
import java.util.Objects;

/**
 * perftest's out-of-band protocol over an {@link OobLink}: a TCP connection, or with {@code -R}
 * the RC QP rdma_cm connected for it (then key records are perftest's 56-byte binary struct and
 * the session ends without "done"):
 * <ol>
 *   <li>{@link #setUp}: versions (16 bytes), then — depending on the peer's version — page size
 *       and cache line size (4 bytes each) and the MTU (2 bytes);</li>
 *   <li>{@link #handshake}: key records, exchanged three times during setup and again as
 *       barriers around the traffic;</li>
 *   <li>{@link #exchangeBwReport}: bandwidth results after the traffic;</li>
 *   <li>{@link #close}: a last key exchange, then "done".</li>
 * </ol>
 * Which steps a tool uses, and how often, is up to the caller; this class gets each step's bytes
 * and sizes right for the peer's version.
 */
public final class PerftestOob implements Closeable {
    private final OobLink channel;
    private PerftestVersion peerVersion;
    private int gidIndex;

    public PerftestOob(OobLink channel) {
        this.channel = Objects.requireNonNull(channel, "channel");
    }

    /** The GID index the binary key records ({@code -R}) carry; 0 until set, as before the QPs exist. */
    public PerftestOob gidIndex(int index) {
        this.gidIndex = index;
        return this;
    }

    public OobLink channel() {
        return channel;
    }

    /**
     * The exchanges before QPs are created.
     *
     * @param exchangeVersions false for {@code --dont_xchg_versions}: nothing is sent and the peer
     *                         is assumed to be of our version
     */
    public Negotiated setUp(PerftestVersion mine, SystemData system, Mtu mtu, boolean exchangeVersions)
            throws IOException {
        if (!exchangeVersions) {
            peerVersion = mine;
            return new Negotiated(mine, system, mtu);
        }
        peerVersion = PerftestVersion.decode(channel.exchange("version", mine.encode()));
        if (!peerVersion.isCompatible()) {
            throw new OobProtocolException("Current implementation is not compatible with versions older than 5.70"
                    + " (peer is \"" + peerVersion + "\")");
        }
        SystemData agreed = system;
        if (peerVersion.exchangesSystemData()) {
            int cycle = SystemData.decodeField("cycle buffer",
                    channel.exchange("cycle buffer", SystemData.encodeField(system.cycleBuffer())));
            int cacheLine = SystemData.decodeField("cache line size",
                    channel.exchange("cache line size", SystemData.encodeField(system.cacheLineSize())));
            agreed = system.max(new SystemData(cycle, cacheLine));
        }
        Mtu agreedMtu = mtu;
        if (peerVersion.exchangesMtu()) {
            int peerMtu = MtuMessage.decode(channel.exchange("MTU", MtuMessage.encode(mtu, peerVersion)));
            agreedMtu = MtuMessage.negotiate(mtu, peerMtu);
        }
        return new Negotiated(peerVersion, agreed, agreedMtu);
    }

    /**
     * One key exchange ({@code ctx_hand_shake}). The peer's record is read in the same form as
     * ours — with a GID exactly when ours has one — as perftest does.
     */
    public KeyRecord handshake(KeyRecord mine) throws IOException {
        if (channel.viaRdmaCm()) {
            return KeyRecord.decodeStruct(channel.exchange("key record", mine.encodeStruct(gidIndex)));
        }
        byte[] theirs = channel.exchange("key record", mine.encode(), mine.wireSize());
        return KeyRecord.decode(theirs, mine.hasGid());
    }

    /** The bandwidth report exchange; {@link #setUp} must have run. */
    public BwResult exchangeBwReport(BwResult mine) throws IOException {
        PerftestVersion peer = requirePeerVersion();
        byte[][] out = BwReportMessage.encode(mine, peer);
        byte[][] in = new byte[out.length][];
        for (int i = 0; i < out.length; i++) {
            in[i] = channel.exchange("BW report " + BwReportMessage.FIELDS[i], out[i]);
        }
        return BwReportMessage.decode(in);
    }

    /**
     * Ends the session as perftest does ({@code ctx_close_connection}): a last key exchange, then
     * "done" (not over rdma_cm), then the link is closed without waiting for the peer's "done".
     */
    public void close(KeyRecord mine) throws IOException {
        try {
            handshake(mine);
            if (!channel.viaRdmaCm()) {
                channel.write("done", DoneMessage.encode());
            }
        } finally {
            channel.close();
        }
    }

    /** The peer's version, once {@link #setUp} has run. */
    public PerftestVersion peerVersion() {
        return requirePeerVersion();
    }

    private PerftestVersion requirePeerVersion() {
        if (peerVersion == null) {
            throw new IllegalStateException("setUp has not run: the peer's version is not known yet");
        }
        return peerVersion;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
