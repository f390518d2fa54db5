package io.rocelab.sw.mmu;

import io.rocelab.sw.config.BufferProfile;

/**
 * Buffer use of one ingress port's priority group: the three parts (reserved, shared, headroom),
 * the watermarks, and whether an XOFF is outstanding. Owner thread only.
 */
public final class PgState {
    final BufferProfile profile;
    final int pool;
    long reservedUsed;
    long sharedUsed;
    long headroomUsed;
    long watermark;
    long headroomWatermark;
    boolean xoffSent;

    /** The profile's numbers (0 without one), and whether it is lossless, read on every admission. */
    final long size;
    final long xoff;
    final long xon;
    final long headroom;
    final boolean lossless;

    PgState(BufferProfile profile, int pool) {
        this.profile = profile;
        this.pool = pool;
        this.size = profile == null ? 0 : profile.size();
        this.xoff = profile == null ? 0 : profile.xoff();
        this.xon = profile == null ? 0 : profile.xon();
        this.headroom = profile == null ? 0 : profile.headroom();
        this.lossless = profile != null && profile.lossless();
    }

    /** @return bytes held by this PG */
    public long used() {
        return reservedUsed + sharedUsed + headroomUsed;
    }

    /** @return the most bytes ever held */
    public long watermark() {
        return watermark;
    }

    /** @return the most headroom bytes ever held */
    public long headroomWatermark() {
        return headroomWatermark;
    }

    /** @return true while an XOFF is outstanding for this PG */
    public boolean paused() {
        return xoffSent;
    }

    /** @return the profile, or null for a PG with nothing configured */
    public BufferProfile profile() {
        return profile;
    }
}
