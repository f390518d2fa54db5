package io.rocelab.fabric.raw;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.function.IntConsumer;

/**
 * A backend's socket on one Linux interface: whole Ethernet frames out, and the frames that came in
 * on the interface (not the ones this host sent) in. One thread receives, any thread sends.
 */
public interface RawSocket extends AutoCloseable {

    /** Takes received frames; the array is the sink's to keep. */
    @FunctionalInterface
    interface FrameSink {
        void frame(byte[] frame);
    }

    /**
     * Hands the frames that arrived to {@code sink}, waiting a short while (the backend's poll
     * timeout) if none has.
     *
     * @param max at most this many frames
     * @return frames handed over, 0 if none came in time
     * @throws IOException if the socket failed or was closed
     */
    int receive(FrameSink sink, int max) throws IOException;

    /**
     * @return a descriptor an event loop can wait on: readable (level-triggered) while received
     *         frames wait for {@link #receiveNow}; -1 if this socket has none
     */
    default int readinessFd() {
        return -1;
    }

    /** Takes received frames in buffers of the caller's allocator; the buffer is the sink's to release. */
    @FunctionalInterface
    interface BufferSink {
        void frame(ByteBuf frame);
    }

    /**
     * Hands over the frames already received, never waiting, each copied into a buffer from
     * {@code alloc}. Only where {@link #readinessFd()} is one.
     *
     * @return frames handed over
     */
    default int receiveNow(io.netty.buffer.ByteBufAllocator alloc, BufferSink sink, int max) {
        throw new UnsupportedOperationException("this socket has no readiness descriptor");
    }

    /**
     * Sends one whole frame (destination MAC on, no FCS).
     *
     * @throws IOException if the interface did not take it
     */
    void send(byte[] frame, int length) throws IOException;

    /**
     * @return {@code true} if this socket gathers frames to send ({@link #queue}) and writes them
     *         in one system call ({@link #flush}); {@code false} if only {@link #send} writes
     */
    default boolean batchesSends() {
        return false;
    }

    /**
     * Adds one whole frame to the batch the next {@link #flush} writes (a copy, or the frame itself
     * retained until then); a full batch is written at once. Only where {@link #batchesSends()}; the
     * caller keeps its own reference.
     *
     * @param sent told the length of each frame the interface took
     * @return frames the interface refused (of a batch written now)
     */
    default int queue(ByteBuf frame, int index, int length, IntConsumer sent) {
        throw new UnsupportedOperationException("this socket sends each frame at once");
    }

    /**
     * Writes the frames {@link #queue}d since the last flush.
     *
     * @param sent told the length of each frame the interface took
     * @return frames the interface refused
     */
    default int flush(IntConsumer sent) {
        return 0;
    }

    /** @return frames the kernel dropped for want of room in the socket's buffer, since open */
    long droppedAtSocket();

    /** Makes a {@link #receive} waiting on another thread return soon. */
    void wakeUp();

    /** Closes the socket; call after the receiving thread has stopped. */
    @Override
    void close();

    /** @return e.g. {@code pcap veth0 (libpcap version 1.10.3)} */
    String describe();
}
