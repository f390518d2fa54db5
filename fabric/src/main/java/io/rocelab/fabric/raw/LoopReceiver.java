package io.rocelab.fabric.raw;

import io.netty.channel.EventLoop;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoEvent;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import io.rocelab.fabric.buffer.FramePoolAllocator;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;

/**
 * Receives a {@link RawSocket}'s frames on its owner's own epoll loop: the socket's descriptor is
 * registered with the loop (level-triggered, readable while frames wait in its ring), and when it is
 * readable the loop's thread takes the frames itself and hands them straight to the port. No receive
 * thread, no queue between threads and no wake-up of the loop per batch: the bridge's kernel path has
 * none of these either. Where the owner is not an epoll loop (NIO, busy polling) or the socket has no
 * descriptor to wait on (libpcap), the port keeps its receive thread.
 */
final class LoopReceiver implements EpollIoHandle {
    /** Frames taken per readiness event before the loop's other work (its tasks, timers) runs. */
    private static final int BUDGET = 256;
    /** Free received frames kept for reuse. */
    private static final int POOLED = 4096;

    private final RawSocket socket;
    private final FileDescriptor fd;
    private final RawSocket.BufferSink sink;
    /** Received frames' buffers: taken and, once forwarded, given back on the loop's thread. */
    private final FramePoolAllocator pool;
    private final Runnable failed;
    private volatile IoRegistration registration;

    private LoopReceiver(RawSocket socket, int maxFrameBytes, RawSocket.BufferSink sink, Runnable failed) {
        this.socket = socket;
        // a VLAN tag put back, and room to pad a short frame to Ethernet's minimum
        this.pool = new FramePoolAllocator(Math.max(maxFrameBytes + 4, RawEthernetPort.MIN_WIRE_FRAME_BYTES), POOLED);
        this.fd = new FileDescriptor(socket.readinessFd());
        this.sink = sink;
        this.failed = failed;
    }

    /**
     * Registers {@code socket} with {@code owner}'s loop if both allow it.
     *
     * @param maxFrameBytes the largest frame received
     * @param sink   takes each frame, on the loop's thread, in a pooled buffer it releases
     * @param failed run (on the loop's thread) if the registration fails after all, or the socket does
     * @return the receiver, or null if the owner or the socket cannot receive this way
     */
    static LoopReceiver register(RawSocket socket, int maxFrameBytes, Scheduler owner, RawSocket.BufferSink sink,
                                 Runnable failed) {
        if (socket.readinessFd() < 0 || !(owner instanceof RealTimeScheduler)) {
            return null;
        }
        EventLoop loop = ((RealTimeScheduler) owner).eventLoop();
        if (!(loop instanceof IoEventLoop) || !((IoEventLoop) loop).isCompatible(EpollIoHandle.class)) {
            return null;
        }
        LoopReceiver r = new LoopReceiver(socket, maxFrameBytes, sink, failed);
        ((IoEventLoop) loop).register(r).addListener(f -> {
            if (f.isSuccess()) {
                IoRegistration reg = (IoRegistration) f.getNow();
                r.registration = reg;
                reg.submit(EpollIoOps.EPOLLIN);
            } else {
                failed.run();
            }
        });
        return r;
    }

    @Override
    public FileDescriptor fd() {
        return fd;
    }

    @Override
    public void handle(IoRegistration reg, IoEvent event) {
        EpollIoOps ops = ((EpollIoEvent) event).ops();
        if (ops.contains(EpollIoOps.EPOLLERR) && !ops.contains(EpollIoOps.EPOLLIN)) {
            reg.cancel();
            failed.run();
            return;
        }
        socket.receiveNow(pool, sink, BUDGET);
    }

    /** Stops receiving; on the loop's thread. */
    void cancel() {
        IoRegistration reg = registration;
        if (reg != null) {
            reg.cancel();
        }
    }

    @Override
    public void close() {
        // the port closes the socket; the loop closes its handles when it shuts down
    }
}
