package io.rocelab.lab.demo;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.codec.capture.PacketDirection;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A capture that stays small however long the run: per interface it keeps the first
 * {@code framesPerInterface} frames of each phase (each test of the demo), and besides those up
 * to {@code decisions} frames that carry a comment (the switch's decisions: PFC sent, ECN marked,
 * dropped), wherever they fall. Frames are kept whole, so every RoCEv2 frame in the file still
 * has its ICRC; the rest are counted, not written.
 *
 * <p>Single owner, like any {@link CaptureWriter}; only {@link #nextPhase()} and the totals may be
 * called from another thread.
 */
public final class BoundedCapture implements CaptureWriter {
    private final CaptureWriter out;
    private final int framesPerInterface;
    private final int decisions;
    private volatile int phase;
    private int seenPhase;
    private int[] kept = new int[0];
    private int decisionsKept;
    private volatile long written;
    private volatile long left;

    /**
     * @param out                the file (closed with this)
     * @param framesPerInterface frames kept per interface in each phase
     * @param decisions          commented frames kept beyond those, over the whole capture
     */
    public BoundedCapture(CaptureWriter out, int framesPerInterface, int decisions) {
        this.out = Objects.requireNonNull(out, "out");
        if (framesPerInterface < 0 || decisions < 0) {
            throw new IllegalArgumentException("limits must be >= 0: " + framesPerInterface + ", " + decisions);
        }
        this.framesPerInterface = framesPerInterface;
        this.decisions = decisions;
    }

    /** Starts a new phase: every interface may keep {@code framesPerInterface} frames again. Any thread. */
    void nextPhase() {
        phase++;
    }

    /** @return frames written to the file */
    public long written() {
        return written;
    }

    /** @return frames seen but not written */
    public long left() {
        return left;
    }

    @Override
    public int addInterface(String name, int linkType, int snapLen, long speedBitsPerSecond, String description)
            throws IOException {
        int id = out.addInterface(name, linkType, snapLen, speedBitsPerSecond, description);
        if (id >= kept.length) {
            kept = Arrays.copyOf(kept, id + 1);
        }
        return id;
    }

    @Override
    public void write(int interfaceId, long timestampNanos, ByteBuf frame, String commentOrNull,
                      PacketDirection direction) throws IOException {
        int p = phase;
        if (p != seenPhase) {
            seenPhase = p;
            Arrays.fill(kept, 0);
        }
        boolean keep;
        if (interfaceId >= 0 && interfaceId < kept.length && kept[interfaceId] < framesPerInterface) {
            kept[interfaceId]++;
            keep = true;
        } else if (commentOrNull != null && decisionsKept < decisions) {
            decisionsKept++;
            keep = true;
        } else {
            keep = false;
        }
        if (keep) {
            out.write(interfaceId, timestampNanos, frame, commentOrNull, direction);
            written++;
        } else {
            left++;
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
