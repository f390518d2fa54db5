package io.rocelab.sw.forward;

/**
 * What an MLAG peer link changes in bridging: no learning from frames that crossed it (the peer
 * tells its MACs in messages instead), every MAC learned elsewhere told to the peer, and
 * isolation: a frame that came over the peer link does not leave by a shared port channel the peer
 * reaches the host by itself (it delivered the frame there already).
 */
public interface PeerLinkRules {
    /** No MLAG: learn everywhere, isolate nothing. */
    PeerLinkRules NONE = new PeerLinkRules() {
        @Override
        public boolean learnsOn(int iface) {
            return true;
        }

        @Override
        public void learned(long fdbKey, int iface) {
        }

        @Override
        public boolean isolated(int in, int out) {
            return false;
        }
    };

    /** @return whether source MACs of frames coming in on {@code iface} are learned */
    boolean learnsOn(int iface);

    /** A MAC (FDB key: VID above the MAC) is new on, or moved to, {@code iface}. */
    void learned(long fdbKey, int iface);

    /** @return whether a frame that came in on {@code in} must not leave by {@code out} */
    boolean isolated(int in, int out);
}
