package io.rocelab.sw.config;

/**
 * One SONiC {@code BUFFER_PROFILE} entry, as bytes, read as SAI reads it ({@code saibuffer.h}).
 *
 * <ul>
 *   <li>{@code size}: reserved bytes ({@code SAI_BUFFER_PROFILE_ATTR_RESERVED_BUFFER_SIZE}).</li>
 *   <li>{@code xoff}: the headroom ({@code SAI_BUFFER_PROFILE_ATTR_XOFF_TH}, "maximum available
 *       buffer for a PG after XOFF is generated (i.e. headroom buffer)"). A profile with an
 *       {@code xoff} is lossless. XOFF itself is sent when the PG's use of the shared pool reaches
 *       its limit ({@code dynamic_th} or {@code static_th}).</li>
 *   <li>{@code xon}, {@code xon_offset}: XON when the PG's total use falls to
 *       {@code max(xon, limit - xon_offset)} ({@code SAI_BUFFER_PROFILE_ATTR_XON_TH},
 *       {@code XON_OFFSET_TH}), the limit being its reserved bytes plus its shared limit.</li>
 *   <li>{@code dynamic_th} n: the PG may hold 2^n times the pool's free shared bytes
 *       ({@code SAI_BUFFER_PROFILE_ATTR_SHARED_DYNAMIC_TH}); {@code static_th}: a fixed number of
 *       bytes ({@code SHARED_STATIC_TH}).</li>
 *   <li>{@code headroom_type dynamic}: SONiC's dynamic buffer model, size/xon/xoff worked out per
 *       port from its speed, cable length and MTU ({@link HeadroomModel}).</li>
 * </ul>
 *
 * <p>Vendors lay {@code size} out differently, and {@link #reservedBytes()} reads both: Mellanox
 * sizes a lossless profile as {@code size = xon + xoff} (the headroom is part of {@code size}), so
 * only {@code size - xoff} is charged before the shared pool; Broadcom gives a small
 * {@code size} (1248) beside a large {@code xoff} (165568), all of it charged first.
 *
 * @param name            the profile's key
 * @param pool            the {@code BUFFER_POOL} it draws from
 * @param size            reserved bytes
 * @param xon             XON threshold (lossless), else 0
 * @param xoff            headroom (lossless), else 0
 * @param xonOffset       XON offset below the limit (lossless), 0 for none
 * @param staticTh        static shared limit in bytes, or -1
 * @param dynamicTh       dynamic threshold exponent, or {@link Integer#MIN_VALUE} when unset
 * @param dynamicHeadroom {@code headroom_type dynamic}: size/xon/xoff come from each port's physics
 */
public record BufferProfile(String name, String pool, long size, long xon, long xoff, long xonOffset,
                            long staticTh, int dynamicTh, boolean dynamicHeadroom) {

    /** @return a lossy profile: {@code size} reserved, then {@code dynamic_th} of the pool */
    public static BufferProfile lossy(String name, String pool, long size, int dynamicTh) {
        return new BufferProfile(name, pool, size, 0, 0, 0, -1, dynamicTh, false);
    }

    /** @return a lossless profile with a fixed headroom and a dynamic shared limit */
    public static BufferProfile lossless(String name, String pool, long size, long xon, long xoff, int dynamicTh) {
        return new BufferProfile(name, pool, size, xon, xoff, 0, -1, dynamicTh, false);
    }

    /** @return a lossless profile whose headroom the switch works out per port ({@code headroom_type dynamic}) */
    public static BufferProfile dynamicHeadroom(String name, String pool, int dynamicTh) {
        return new BufferProfile(name, pool, 0, 0, 0, 0, -1, dynamicTh, true);
    }

    /** @return true for a lossless (PFC) profile: one with a headroom ({@code xoff}) or a dynamic one */
    public boolean lossless() {
        return xoff > 0 || dynamicHeadroom;
    }

    /** @return true if {@code dynamic_th} was given */
    public boolean hasDynamicTh() {
        return dynamicTh != Integer.MIN_VALUE;
    }

    /**
     * The bytes charged before the shared pool. When {@code size >= xon + xoff} (Mellanox's
     * layout) the headroom is inside {@code size}, and only {@code size - xoff} comes first; else
     * all of {@code size} (Broadcom's). So a lossless PG pauses at {@code reservedBytes() + shared
     * limit} and drops {@code xoff} later, which gives sonic-mgmt's trigger points for both:
     * Mellanox {@code pkts_num_trig_pfc = shared + xon + (size - xon - xoff)},
     * {@code pkts_num_trig_ingr_drp = shared + size}.
     */
    public long reservedBytes() {
        return xoff > 0 && size >= xon + xoff ? size - xoff : size;
    }

    /** @return the same profile with size/xon/xoff worked out for one port */
    public BufferProfile withHeadroom(String name, HeadroomModel.Headroom h) {
        return new BufferProfile(name, pool, h.size(), h.xon(), h.xoff(), xonOffset, staticTh, dynamicTh, true);
    }
}
