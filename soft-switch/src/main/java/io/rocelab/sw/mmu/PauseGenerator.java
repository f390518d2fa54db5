package io.rocelab.sw.mmu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Pause;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.PortConfig;

/**
 * Builds and sends IEEE 802.3x PAUSE frames (802.3 Annex 31B) for the MMU's port-level decisions:
 * the whole port's ingress passed its threshold ({@link PortPauseState}).
 *
 * <p>A pause carries {@code quanta} (the switch's {@code pfc_quanta}, 0xFFFF by default, as ASICs
 * send) and is repeated every half of that time at the port's speed while the port stays over its
 * resume threshold, so the peer never resumes on its own; the resume is a PAUSE of time 0, which
 * ends the peer's pause at once (31B.3.1). The same refresh rule as {@link PfcGenerator}.
 */
public final class PauseGenerator implements PauseSignal {

    /** Where PAUSE frames go: the port's control queue, ahead of data. */
    public interface Sender {
        /**
         * @param port    the ingress port the pause is for (it goes out of the same port)
         * @param frame   the PAUSE frame; ownership passes
         * @param comment capture comment
         * @param xoff    true for a pause, false for the resume (time 0)
         */
        void sendPause(int port, ByteBuf frame, String comment, boolean xoff);
    }

    private final Scheduler scheduler;
    private final long[] portMacs;
    private final int quanta;
    private final Sender sender;
    private final ByteBufAllocator alloc;
    private final boolean[] paused;
    private final Cancellable[] refresh;
    private final long[] refreshNanos;
    private final Runnable[] refreshTasks;
    private final String pauseComment;

    /**
     * @param scheduler the switch's scheduler
     * @param ports     port configurations (the speed the quanta are counted at)
     * @param portMacs  source MAC of each port
     * @param quanta    pause time sent in a pause
     * @param sender    where the frames go
     * @param alloc     allocator for the frames
     */
    public PauseGenerator(Scheduler scheduler, PortConfig[] ports, long[] portMacs, int quanta, Sender sender,
                          ByteBufAllocator alloc) {
        this.scheduler = scheduler;
        this.portMacs = portMacs;
        this.quanta = quanta;
        this.sender = sender;
        this.alloc = alloc;
        this.paused = new boolean[ports.length];
        this.refresh = new Cancellable[ports.length];
        this.refreshNanos = new long[ports.length];
        this.refreshTasks = new Runnable[ports.length];
        this.pauseComment = "PAUSE " + quanta + " quanta sent";
        for (int i = 0; i < ports.length; i++) {
            refreshNanos[i] = Math.max(1, Pfc.quantaToNanos(quanta, ports[i].speedBitsPerSecond()) / 2);
            int port = i;
            refreshTasks[i] = () -> refresh(port);
        }
    }

    /** @return whether {@code port} has its peer paused */
    public boolean paused(int port) {
        return paused[port];
    }

    /** @return the interval at which an outstanding pause is repeated on {@code port} */
    public long refreshNanos(int port) {
        return refreshNanos[port];
    }

    @Override
    public void xoff(int port) {
        paused[port] = true;
        send(port, quanta);
        if (refresh[port] == null) {
            refresh[port] = scheduler.schedule(refreshNanos[port], refreshTasks[port]);
        }
    }

    @Override
    public void xon(int port) {
        paused[port] = false;
        send(port, 0);
        if (refresh[port] != null) {
            refresh[port].cancel();
            refresh[port] = null;
        }
    }

    private void refresh(int port) {
        refresh[port] = null;
        if (!paused[port]) {
            return;
        }
        send(port, quanta);
        refresh[port] = scheduler.schedule(refreshNanos[port], refreshTasks[port]);
    }

    private void send(int port, int time) {
        ByteBuf frame = alloc.buffer(Pause.FRAME_LENGTH);
        Pause.writeFrame(frame, portMacs[port], time);
        sender.sendPause(port, frame, time == 0 ? "PAUSE resume (time 0) sent" : pauseComment,
            time != 0);
    }
}
