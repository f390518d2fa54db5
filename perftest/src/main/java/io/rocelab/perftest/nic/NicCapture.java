package io.rocelab.perftest.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PacketDirection;
import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.time.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * {@code --capture FILE}: a pcapng of every frame a tool's soft NIC sent and received, as the
 * bytes crossed its port, bounded however long the run: the first {@code framesEachEnd} frames
 * are written as they pass, the last {@code framesEachEnd} are kept in a ring and written when
 * the capture is finished (at the end of the run, when it fails, or when it is interrupted), so the
 * file holds how the run began and how it ended. A comment on the first frame after the gap says
 * how many were left out. Frames are kept whole: every RoCEv2 frame still has its ICRC.
 *
 * <p>One interface per NIC (in-process runs capture both), each frame with its direction (pcapng
 * {@code epb_flags}: inbound or outbound). Frames pass on the NICs' owner threads and
 * {@link #finish()} may come from a shutdown hook, hence the lock; a write failure is remembered
 * and reported by {@link #finish()}, never thrown into the NIC's data path.
 */
public final class NicCapture implements AutoCloseable {
    private final Path file;
    private final CaptureWriter out;
    private final int framesEachEnd;
    private final Ring ring;
    /** Two NICs' clocks closer than this to each other share the first one's offset to the epoch. */
    private static final long MAX_CLOCK_SKEW_NANOS = 1_000_000_000L;
    private long firstEpochOffset = Long.MIN_VALUE;
    private long seen;
    private long written;
    private boolean closed;
    private IOException failure;

    private NicCapture(Path file, CaptureWriter out, int framesEachEnd) {
        this.file = file;
        this.out = out;
        this.framesEachEnd = framesEachEnd;
        this.ring = new Ring(framesEachEnd);
    }

    /**
     * Creates (or truncates) the file.
     *
     * @param framesEachEnd frames kept at the start and at the end of the run, at least 1
     * @throws IOException if the file cannot be written
     */
    public static NicCapture create(Path file, int framesEachEnd) throws IOException {
        Objects.requireNonNull(file, "file");
        if (framesEachEnd < 1) {
            throw new IllegalArgumentException("framesEachEnd must be >= 1: " + framesEachEnd);
        }
        return new NicCapture(file, PcapngWriter.create(file), framesEachEnd);
    }

    /** The file being written. */
    public Path file() {
        return file;
    }

    /**
     * A port that passes everything to {@code port} and records it here, on a new interface.
     *
     * @param name        the interface's name in the capture, e.g. "rocelab0"
     * @param description shown by Wireshark, e.g. the attachment's description
     * @param clock       the NIC's clock: capture times are its time, moved to the epoch once
     */
    public synchronized FramePort tap(FramePort port, String name, String description, Clock clock) throws IOException {
        Objects.requireNonNull(port, "port");
        int id = out.addInterface(name, LinkType.ETHERNET, 0, 0, description);
        Instant now = Instant.now();
        long epochOffset = now.getEpochSecond() * 1_000_000_000L + now.getNano() - clock.nanoTime();
        if (firstEpochOffset == Long.MIN_VALUE) {
            firstEpochOffset = epochOffset;
        } else if (Math.abs(epochOffset - firstEpochOffset) < MAX_CLOCK_SKEW_NANOS) {
            // the NICs' real-time clocks share one time base: one offset keeps their frames in order
            epochOffset = firstEpochOffset;
        }
        return new Tap(port, id, clock, epochOffset);
    }

    /** @return frames seen so far, in both directions on every interface */
    public synchronized long framesSeen() {
        return seen;
    }

    /** The time is read under the lock, so frames of several NICs are written in time order. */
    private synchronized void record(int interfaceId, Clock clock, long epochOffset, ByteBuf frame,
                                     PacketDirection direction) {
        if (closed || failure != null) {
            return;
        }
        long timestampNanos = epochOffset + clock.nanoTime();
        seen++;
        if (written < framesEachEnd) {
            try {
                out.write(interfaceId, timestampNanos, frame, null, direction);
                written++;
            } catch (IOException e) {
                failure = e;
            }
            return;
        }
        ring.keep(interfaceId, timestampNanos, frame, direction);
    }

    /** Writes the last frames and closes the file; see {@link #finish()}. */
    @Override
    public void close() throws IOException {
        finish();
    }

    /**
     * Writes the last frames and closes the file; finishing twice writes nothing more.
     *
     * @return a line for the user: the file and what it holds
     * @throws IOException if a frame or the file's end could not be written
     */
    public synchronized String finish() throws IOException {
        if (closed) {
            return summary();
        }
        closed = true;
        try {
            if (failure == null) {
                long left = seen - written - ring.size();
                for (int i = 0; i < ring.size(); i++) {
                    String comment = i == 0 && left > 0
                        ? "rocelab: " + left + " frames not kept before this one (--capture-frames " + framesEachEnd
                            + " keeps the first and the last " + framesEachEnd + ")"
                        : null;
                    ring.write(i, out, comment);
                }
                written += ring.size();
            }
        } catch (IOException e) {
            failure = e;
        } finally {
            ring.release();
            try {
                out.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        if (failure != null) {
            throw new IOException("capture " + file + " is incomplete: " + failure.getMessage(), failure);
        }
        return summary();
    }

    private String summary() {
        return "capture " + file + ": " + written + " frames" + (seen > written
            ? " (the first and the last " + framesEachEnd + " of " + seen + ")" : "");
    }

    /** The tap between a NIC and its port. */
    private final class Tap extends ForwardingFramePort {
        private final int interfaceId;
        private final Clock clock;
        private final long epochOffset;

        Tap(FramePort delegate, int interfaceId, Clock clock, long epochOffset) {
            super(delegate);
            this.interfaceId = interfaceId;
            this.clock = clock;
            this.epochOffset = epochOffset;
        }

        @Override
        public void send(ByteBuf frame) {
            record(interfaceId, clock, epochOffset, frame, PacketDirection.OUTBOUND);
            delegate.send(frame);
        }

        @Override
        public void setReceiver(FrameReceiver receiver) {
            delegate.setReceiver(receiver == null ? null : (port, frame) -> {
                record(interfaceId, clock, epochOffset, frame, PacketDirection.INBOUND);
                receiver.onFrame(this, frame);
            });
        }
    }

    /**
     * The last frames, copied (the NIC reuses its frame buffers once sent), oldest first from
     * {@link #head}; a slot's buffer is reused by the frame that overwrites it.
     */
    private static final class Ring {
        private final ByteBuf[] frames;
        private final int[] interfaces;
        private final long[] times;
        private final PacketDirection[] directions;
        private int head;
        private int size;

        Ring(int capacity) {
            frames = new ByteBuf[capacity];
            interfaces = new int[capacity];
            times = new long[capacity];
            directions = new PacketDirection[capacity];
        }

        int size() {
            return size;
        }

        void keep(int interfaceId, long time, ByteBuf frame, PacketDirection direction) {
            int slot = (head + size) % frames.length;
            if (size == frames.length) {
                slot = head;
                head = (head + 1) % frames.length;
            } else {
                size++;
            }
            int length = frame.readableBytes();
            ByteBuf copy = frames[slot];
            if (copy == null || copy.capacity() < length) {
                if (copy != null) {
                    copy.release();
                }
                copy = Unpooled.buffer(Math.max(length, 128));
                frames[slot] = copy;
            }
            copy.clear().writeBytes(frame, frame.readerIndex(), length);
            interfaces[slot] = interfaceId;
            times[slot] = time;
            directions[slot] = direction;
        }

        void write(int i, CaptureWriter out, String comment) throws IOException {
            int slot = (head + i) % frames.length;
            out.write(interfaces[slot], times[slot], frames[slot], comment, directions[slot]);
        }

        void release() {
            for (int i = 0; i < frames.length; i++) {
                if (frames[i] != null) {
                    frames[i].release();
                    frames[i] = null;
                }
            }
            size = 0;
        }
    }
}
