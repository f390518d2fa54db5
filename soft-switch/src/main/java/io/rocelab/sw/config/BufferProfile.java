package io.rocelab.sw.config;

/**
 * One SONiC {@code BUFFER_PROFILE} entry, as bytes.
 *
 * <p>SONiC vendors read {@code xon}/{@code xoff} differently; rocelab uses the reading of the
 * textbook MMU (and of the ns-3 RDMA model): {@code xoff} and {@code xon} are occupancies of the
 * priority group. Crossing {@code xoff} sends PFC XOFF; falling to {@code xon} sends XON, and
 * {@code xon < xoff} is the hysteresis that keeps the pause from flapping. {@code headroom} is the
 * extra room kept for what is still on the cable and in the peer's transmitter after XOFF is sent.
 * {@code size} is the reserved (guaranteed) part, charged before the shared pool.
 * Lossy profiles have no {@code xoff} and are capped either by {@code static_th} (bytes) or by
 * {@code dynamic_th} (alpha = 2^dynamic_th times the pool's free space, as SONiC's dynamic threshold).
 *
 * @param name      the profile's key
 * @param pool      the {@code BUFFER_POOL} it draws from
 * @param size      reserved bytes
 * @param xon       resume threshold (lossless), else 0
 * @param xoff      pause threshold (lossless), else 0
 * @param headroom  bytes absorbed after XOFF (lossless), else 0
 * @param staticTh  static cap in bytes for lossy use, or -1
 * @param dynamicTh dynamic threshold exponent, or {@link Integer#MIN_VALUE} when unset
 */
public record BufferProfile(String name, String pool, long size, long xon, long xoff, long headroom,
                            long staticTh, int dynamicTh) {

    /** @return true for a lossless (PFC) profile, i.e. one with an {@code xoff} threshold */
    public boolean lossless() {
        return xoff > 0;
    }

    /** @return true if {@code dynamic_th} was given */
    public boolean hasDynamicTh() {
        return dynamicTh != Integer.MIN_VALUE;
    }
}
