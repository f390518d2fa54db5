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
    /** Of {@link #headroomUsed}, the bytes taken from the pool's shared headroom pool. */
    long headroomFromPool;
    long watermark;
    long sharedWatermark;
    long headroomWatermark;
    long persistentWatermark;
    long persistentSharedWatermark;
    long persistentHeadroomWatermark;
    boolean xoffSent;
    long xoffCount;
    long drops;
    long headroomDrops;

    /** The profile's numbers (0 without one), and whether it is lossless, read on every admission. */
    final long size;
    /** Bytes charged before the shared pool ({@link BufferProfile#reservedBytes()}). */
    final long reserved;
    /** The headroom: {@code xoff}. */
    final long xoff;
    final long xon;
    final long xonOffset;
    final boolean lossless;

    PgState(BufferProfile profile, int pool) {
        this.profile = profile;
        this.pool = pool;
        this.size = profile == null ? 0 : profile.size();
        this.reserved = profile == null ? 0 : profile.reservedBytes();
        this.xoff = profile == null ? 0 : profile.xoff();
        this.xon = profile == null ? 0 : profile.xon();
        this.xonOffset = profile == null ? 0 : profile.xonOffset();
        this.lossless = profile != null && profile.lossless();
    }

    /** @return bytes held by this PG */
    public long used() {
        return reservedUsed + sharedUsed + headroomUsed;
    }

    /** @return bytes held in the shared pool */
    public long sharedUsed() {
        return sharedUsed;
    }

    /** @return bytes held in the headroom */
    public long headroomUsed() {
        return headroomUsed;
    }

    /** @return the most bytes ever held */
    public long watermark() {
        return watermark;
    }

    /** @return the most shared bytes ever held ({@code SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES}) */
    public long sharedWatermark() {
        return sharedWatermark;
    }

    /** @return the most headroom bytes ever held ({@code SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES}) */
    public long headroomWatermark() {
        return headroomWatermark;
    }

    /** @return the most shared bytes held since the switch started ({@code show priority-group persistent-watermark shared}) */
    public long persistentSharedWatermark() {
        return persistentSharedWatermark;
    }

    /** @return the most headroom bytes held since the switch started */
    public long persistentHeadroomWatermark() {
        return persistentHeadroomWatermark;
    }

    /** @return the XOFFs this PG asked for */
    public long xoffCount() {
        return xoffCount;
    }

    /** @return frames the MMU refused for this PG ({@code SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS}) */
    public long drops() {
        return drops;
    }

    /** @return the most bytes held since the switch started */
    public long persistentWatermark() {
        return persistentWatermark;
    }

    /** @return frames dropped because the headroom was spent */
    public long headroomDrops() {
        return headroomDrops;
    }

    /** @return true while an XOFF is outstanding for this PG */
    public boolean paused() {
        return xoffSent;
    }

    /** @return the profile, or null for a PG with nothing configured */
    public BufferProfile profile() {
        return profile;
    }

    /** Starts the (non-persistent) watermarks again, as {@code sonic-clear priority-group watermark}. */
    void clearWatermarks() {
        watermark = used();
        sharedWatermark = sharedUsed;
        headroomWatermark = headroomUsed;
    }
}
