package io.rocelab.lab.interop;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PcapWriter;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.ForwardingFramePort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A tap between a soft NIC and its port that writes every frame, both directions, to a classic
 * pcap: what the JVM put on the wire and what it got, exactly as the bytes crossed the port. The
 * file can be switched between runs ({@link #start}, {@link #stop}) so that each run has its own
 * capture while the port stays open.
 *
 * <p>Frames pass on the port's owner thread; {@link #start} and {@link #stop} may come from any
 * thread, hence the lock. A write failure is remembered and reported by {@link #stop}, never
 * thrown into the NIC's data path.
 */
final class PcapTap extends ForwardingFramePort {
    private final long epochNanosAtStart;
    private final long nanoTimeAtStart;
    private PcapWriter writer;
    private Path path;
    private long frames;
    private IOException failure;

    PcapTap(FramePort delegate) {
        super(delegate);
        Instant now = Instant.now();
        this.epochNanosAtStart = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        this.nanoTimeAtStart = System.nanoTime();
    }

    /** From now on, frames go to a new pcap at {@code file} (a capture still open is closed first). */
    synchronized void start(Path file) throws IOException {
        stop();
        PcapWriter w = PcapWriter.create(file);
        w.addInterface(delegate.name(), LinkType.ETHERNET, 0, 0, null);
        writer = w;
        path = file;
        frames = 0;
        failure = null;
    }

    /**
     * Closes the current capture.
     *
     * @return the frames written to it (0 when none was open)
     * @throws IOException when a frame or the file's end could not be written
     */
    synchronized long stop() throws IOException {
        if (writer == null) {
            return 0;
        }
        PcapWriter w = writer;
        writer = null;
        try {
            w.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
        if (failure != null) {
            throw new IOException("capture " + path + " is incomplete", failure);
        }
        return frames;
    }

    private synchronized void record(ByteBuf frame) {
        if (writer == null || failure != null) {
            return;
        }
        try {
            writer.write(0, epochNanosAtStart + (System.nanoTime() - nanoTimeAtStart), frame, null);
            frames++;
        } catch (IOException e) {
            failure = e;
        } catch (UncheckedIOException e) {
            failure = e.getCause();
        }
    }

    @Override
    public void send(ByteBuf frame) {
        record(frame);
        delegate.send(frame);
    }

    @Override
    public void setReceiver(io.rocelab.fabric.port.FrameReceiver receiver) {
        delegate.setReceiver(receiver == null ? null : (port, frame) -> {
            record(frame);
            receiver.onFrame(this, frame);
        });
    }
}
