package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Aeth;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.ForwardingFramePort;
import java.util.ArrayList;
import java.util.List;

/** A port decorator that records a copy of every frame sent through it, decoded for assertions. */
public final class WireTap extends ForwardingFramePort {
    /** One RoCE frame as seen on the wire. */
    public record Seen(String from, Opcode opcode, int psn, boolean ackReq, int destQp, int syndrome, int msn,
                int udpSrcPort, int ipId, int ttl, boolean df, int udpChecksum, int payloadLength, byte[] bytes) {
        @Override
        public String toString() {
            return from + " " + opcode + " psn=" + psn + (ackReq ? " A" : "")
                    + (syndrome >= 0 ? " aeth=" + Integer.toHexString(syndrome) + "/" + msn : "");
        }
    }

    private final String name;
    private final List<Seen> log;
    /** Frames this tap loses instead of passing on (recorded all the same, as a capture on the sender would). */
    private volatile java.util.function.Predicate<Seen> lose = s -> false;
    /** Frames whose send throws, as a port with a bug would. */
    private volatile java.util.function.Predicate<Seen> fail = s -> false;

    WireTap(FramePort delegate, String name, List<Seen> log) {
        super(delegate);
        this.name = name;
        this.log = log;
    }

    static Seen decode(String from, byte[] bytes) {
        ParsedFrame f = new ParsedFrame();
        ByteBuf b = Unpooled.wrappedBuffer(bytes);
        if (f.parse(b) != null || f.kind() != FrameKind.ROCEV2) {
            return null;
        }
        int bth = f.bthOffset();
        int aeth = f.offsetOf(ExtHeader.AETH);
        int l3 = f.l3Offset();
        return new Seen(from, f.opcode(), f.psn(), Bth.ackReq(b, bth) != 0, f.destQp(),
                aeth >= 0 ? Aeth.syndrome(b, aeth) : -1, aeth >= 0 ? Aeth.msn(b, aeth) : -1,
                b.getUnsignedShort(f.udpOffset()), Ipv4.id(b, l3), Ipv4.ttl(b, l3),
                (Ipv4.flagsFragment(b, l3) & Ipv4.FLAG_DF) != 0, b.getUnsignedShort(f.udpOffset() + 6),
                f.payloadLength(), bytes);
    }

    @Override
    public void send(ByteBuf frame) {
        Seen s = decode(name, ByteBufUtil.getBytes(frame));
        if (s != null) {
            synchronized (log) {
                log.add(s);
            }
            if (lose.test(s)) {
                frame.release();
                return;
            }
            if (fail.test(s)) {
                frame.release();
                throw new IllegalStateException("injected failure of port " + name + " sending " + s);
            }
        }
        delegate.send(frame);
    }

    /** From now on, throws from {@code send} of the RoCE frames {@code which} accepts (after releasing them). */
    public void fail(java.util.function.Predicate<Seen> which) {
        this.fail = which;
    }

    /** From now on, loses the RoCE frames {@code which} accepts (a deterministic loss for one test). */
    public void lose(java.util.function.Predicate<Seen> which) {
        this.lose = which;
    }

    public static List<Seen> copy(List<Seen> log) {
        synchronized (log) {
            return new ArrayList<>(log);
        }
    }
}
