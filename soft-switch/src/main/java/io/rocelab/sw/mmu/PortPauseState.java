package io.rocelab.sw.mmu;

import io.rocelab.sw.config.BufferProfile;

/**
 * The buffer use of one ingress port that sends 802.3x PAUSE ({@code global_flow_control tx} or
 * {@code both}): PAUSE names no priority, so the port is one flow-control class, and its pause
 * decision is over all its PGs' bytes together.
 *
 * <p>Its thresholds are those of the port's lossless {@code BUFFER_PG} profile, read as SAI reads
 * a lossless PG's ({@code saibuffer.h}), applied to the whole port: it pauses when its bytes reach
 * the profile's reserved bytes plus its shared limit ({@code SAI_BUFFER_PROFILE_ATTR_SHARED_DYNAMIC_TH}:
 * 2^n times the pool's free shared bytes; or {@code SHARED_STATIC_TH}), then takes what still
 * arrives into a headroom of the profile's {@code xoff} ({@code SAI_BUFFER_PROFILE_ATTR_XOFF_TH}),
 * dropping only once that is spent, and resumes when its bytes fall to
 * {@code max(xon, limit - xon_offset)} ({@code XON_TH}, {@code XON_OFFSET_TH}). SAI has no
 * port-level thresholds for {@code SAI_PORT_ATTR_GLOBAL_FLOW_CONTROL_MODE}; this reading is
 * rocelab's. Owner thread only.
 */
public final class PortPauseState {
    final BufferProfile profile;
    final int pool;
    final long reserved;
    final long xoff;
    final long xon;
    final long xonOffset;
    long used;
    long headroomUsed;
    boolean xoffSent;
    long xoffCount;
    long drops;

    PortPauseState(BufferProfile profile, int pool) {
        this.profile = profile;
        this.pool = pool;
        this.reserved = profile.reservedBytes();
        this.xoff = profile.xoff();
        this.xon = profile.xon();
        this.xonOffset = profile.xonOffset();
    }

    /** @return bytes the port's PGs hold together */
    public long used() {
        return used;
    }

    /** @return bytes held in the port's headroom, after its PAUSE */
    public long headroomUsed() {
        return headroomUsed;
    }

    /** @return true while the port's PAUSE is outstanding */
    public boolean paused() {
        return xoffSent;
    }

    /** @return the times the port asked for PAUSE */
    public long xoffCount() {
        return xoffCount;
    }

    /** @return frames refused once the port's headroom was spent */
    public long drops() {
        return drops;
    }

    /** @return the profile whose thresholds the port takes */
    public BufferProfile profile() {
        return profile;
    }
}
