package io.rocelab.sw.mmu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.PortConfig;

/**
 * Builds and sends IEEE 802.1Qbb PFC frames for the MMU's decisions, per ingress port.
 *
 * <p>An XOFF carries {@code quanta} (default 0xFFFF, as switch ASICs send) for every priority whose
 * TC maps to the congested PG and has PFC enabled. While any priority stays paused, the XOFF is
 * repeated every half pause time at the port's speed, so the peer never resumes on its own before
 * we say so. XON is a PFC frame with the same class-enable bits and zero times (802.1Qbb: a zero
 * time resumes at once).
 */
public final class PfcGenerator implements PfcSignal {

    /** Where pause frames go: the port's transmitter, ahead of data, never paused itself. */
    public interface Sender {
        /**
         * @param port    the ingress port the pause is for (it goes out of the same port)
         * @param frame   the PFC frame; ownership passes
         * @param comment capture comment, e.g. "PFC XOFF prio 3 sent"
         * @param cev     class-enable vector
         * @param xoff    true for a pause, false for a resume
         */
        void sendPfc(int port, ByteBuf frame, String comment, int cev, boolean xoff);
    }

    private final Scheduler scheduler;
    private final PortConfig[] ports;
    private final long[] portMacs;
    private final int quanta;
    private final Sender sender;
    private final ByteBufAllocator alloc;
    private final int[] pausedMask;
    private final Cancellable[] refresh;
    private final long[] refreshNanos;
    private final int[] quantaArray = new int[Pfc.PRIORITIES];
    /** Per port, the task that repeats its XOFF (made once, not per pause). */
    private final Runnable[] refreshTasks;

    /**
     * @param scheduler the switch's scheduler
     * @param ports     port configurations
     * @param portMacs  source MAC of each port
     * @param quanta    pause time sent in an XOFF
     * @param sender    where the frames go
     * @param alloc     allocator for the frames
     */
    public PfcGenerator(Scheduler scheduler, PortConfig[] ports, long[] portMacs, int quanta, Sender sender,
                        ByteBufAllocator alloc) {
        this.scheduler = scheduler;
        this.ports = ports;
        this.portMacs = portMacs;
        this.quanta = quanta;
        this.sender = sender;
        this.alloc = alloc;
        this.pausedMask = new int[ports.length];
        this.refresh = new Cancellable[ports.length];
        this.refreshNanos = new long[ports.length];
        this.refreshTasks = new Runnable[ports.length];
        for (int i = 0; i < ports.length; i++) {
            refreshNanos[i] = Math.max(1, Pfc.quantaToNanos(quanta, ports[i].speedBitsPerSecond()) / 2);
            int port = i;
            refreshTasks[i] = () -> refresh(port);
        }
    }

    /** @return the interval at which an outstanding XOFF is repeated on {@code port} */
    public long refreshNanos(int port) {
        return refreshNanos[port];
    }

    /** @return the priorities currently paused by {@code port}, as a bit mask */
    public int pausedMask(int port) {
        return pausedMask[port];
    }

    private int priorities(int port, int pg) {
        PortConfig pc = ports[port];
        int mask = 0;
        for (int p = 0; p < 8; p++) {
            if (pc.pfcEnabled(p) && pc.tcToPg()[p] == pg) {
                mask |= 1 << p;
            }
        }
        return mask;
    }

    @Override
    public void xoff(int port, int pg) {
        int mask = priorities(port, pg);
        if (mask == 0) {
            return;
        }
        pausedMask[port] |= mask;
        send(port, mask, true);
        if (refresh[port] == null) {
            refresh[port] = scheduler.schedule(refreshNanos[port], refreshTasks[port]);
        }
    }

    @Override
    public void xon(int port, int pg) {
        int mask = priorities(port, pg);
        if (mask == 0) {
            return;
        }
        pausedMask[port] &= ~mask;
        send(port, mask, false);
        if (pausedMask[port] == 0 && refresh[port] != null) {
            refresh[port].cancel();
            refresh[port] = null;
        }
    }

    private void refresh(int port) {
        refresh[port] = null;
        if (pausedMask[port] == 0) {
            return;
        }
        send(port, pausedMask[port], true);
        refresh[port] = scheduler.schedule(refreshNanos[port], refreshTasks[port]);
    }

    private void send(int port, int cev, boolean xoff) {
        for (int p = 0; p < Pfc.PRIORITIES; p++) {
            quantaArray[p] = xoff && (cev & (1 << p)) != 0 ? quanta : 0;
        }
        ByteBuf frame = alloc.buffer(Ethernet.MIN_FRAME);
        frame.writeZero(Ethernet.MIN_FRAME);
        Ethernet.write(frame, 0, MacAddress.PAUSE_MULTICAST, portMacs[port], EtherType.MAC_CONTROL);
        Pfc.write(frame, Ethernet.LENGTH, cev, quantaArray);
        sender.sendPfc(port, frame, comment(cev, xoff), cev, xoff);
    }

    /**
     * Capture comments for every class-enable vector, XON ([0]) and XOFF ([1]): built once, so a
     * pause costs no string building on the data path (most switches have no capture tap).
     */
    private static final String[][] COMMENTS = new String[2][256];

    static {
        for (int cev = 0; cev < 256; cev++) {
            COMMENTS[0][cev] = describe(cev, false);
            COMMENTS[1][cev] = describe(cev, true);
        }
    }

    private static String comment(int cev, boolean xoff) {
        return COMMENTS[xoff ? 1 : 0][cev & 0xFF];
    }

    private static String describe(int cev, boolean xoff) {
        StringBuilder sb = new StringBuilder(xoff ? "PFC XOFF prio " : "PFC XON prio ");
        boolean first = true;
        for (int p = 0; p < 8; p++) {
            if ((cev & (1 << p)) != 0) {
                sb.append(first ? "" : ",").append(p);
                first = false;
            }
        }
        return sb.append(" sent").toString();
    }
}
