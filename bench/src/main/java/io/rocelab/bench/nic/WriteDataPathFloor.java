package io.rocelab.bench.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Reth;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.ib.Opcode;

/**
 * The floor of the RC WRITE benchmark (docs/design.md §9): per message only the work the data path cannot
 * avoid, on one thread. For each of the message's MTU-sized segments: write the headers of the
 * WRITE FIRST/MIDDLE/LAST frame (Ethernet, IPv4, UDP, BTH, RETH on the first), copy the segment
 * from the source region into the frame, compute the ICRC the sender puts on it (the same call as
 * the NIC's {@code PacketWriter}), check it as the receiver must ({@link Icrc#verify}), and copy
 * the payload into the destination region. No allocation, no queues, no threads, no ACKs: the
 * frames are pooled direct buffers, allocated once, like the ones the NIC takes from the same
 * allocator, and parsed once (the layout never changes, so the parsed offsets stay valid).
 *
 * <p>{@code checkOnReceive = false} leaves out the receiver's ICRC check (one CRC per frame instead
 * of two): a stricter floor, printed too.
 */
final class WriteDataPathFloor implements AutoCloseable {
    private static final long SRC_MAC = 0x5254_0077_0001L;
    private static final long DST_MAC = 0x5254_0077_0000L;
    private static final int IP = Ethernet.LENGTH;
    private static final int UDP = IP + Ipv4.MIN_LENGTH;
    private static final int BTH = UDP + Udp.LENGTH;

    private final byte[] src;
    private final byte[] dst;
    private final int mtu;
    private final int segments;
    private final ByteBuf[] frames;
    private final ParsedFrame[] parsed;
    private final Opcode[] opcodes;
    private final Icrc txIcrc = new Icrc();
    private final Icrc rxIcrc = new Icrc();
    private int psn;
    private int ipId;
    /** Frames whose ICRC check failed: must stay 0 (and keeps the check from being optimised away). */
    long badIcrc;

    WriteDataPathFloor(byte[] src, byte[] dst, int mtu) {
        if (src.length != dst.length || src.length % mtu != 0) {
            throw new IllegalArgumentException("regions must be the same size, a multiple of the MTU");
        }
        this.src = src;
        this.dst = dst;
        this.mtu = mtu;
        this.segments = src.length / mtu;
        this.frames = new ByteBuf[segments];
        this.parsed = new ParsedFrame[segments];
        this.opcodes = new Opcode[segments];
        for (int k = 0; k < segments; k++) {
            Opcode op = segments == 1 ? Opcode.RC_RDMA_WRITE_ONLY
                    : k == 0 ? Opcode.RC_RDMA_WRITE_FIRST
                    : k == segments - 1 ? Opcode.RC_RDMA_WRITE_LAST : Opcode.RC_RDMA_WRITE_MIDDLE;
            opcodes[k] = op;
            int total = BTH + op.headerLength() + mtu + Icrc.LENGTH;
            ByteBuf f = PooledByteBufAllocator.DEFAULT.directBuffer(total);
            f.writerIndex(total);
            frames[k] = f;
            writeHeaders(k);
            txIcrc.compute(f, IP, 4, Ipv4.MIN_LENGTH, f, UDP, BTH, total - Icrc.LENGTH);
            ParsedFrame p = new ParsedFrame();
            if (p.parse(f) != null || p.payloadLength() != mtu) {
                throw new IllegalStateException("floor frame does not parse: " + p.parse(f));
            }
            parsed[k] = p;
        }
    }

    private int writeHeaders(int k) {
        ByteBuf f = frames[k];
        Opcode op = opcodes[k];
        int total = f.writerIndex();
        Ethernet.write(f, 0, DST_MAC, SRC_MAC, EtherType.IPV4);
        Ipv4.write(f, IP, 0, total - IP, ipId, Ipv4.FLAG_DF, 64, Ipv4.PROTO_UDP, RealTimeNicPair.IP_A,
                RealTimeNicPair.IP_B);
        ipId = (ipId + 1) & 0xFFFF;
        Udp.write(f, UDP, 0xC000, Udp.ROCEV2_PORT, total - UDP, 0);
        boolean last = k == segments - 1;
        Bth.write(f, BTH, op.code(), false, 0, Bth.DEFAULT_PKEY, 0x12, last, psn);
        psn = (psn + 1) & 0xFFFFFF;
        if (op.offsetOf(io.rocelab.codec.ib.ExtHeader.RETH) >= 0) {
            Reth.write(f, BTH + op.offsetOf(io.rocelab.codec.ib.ExtHeader.RETH), 0x80000L, 0x1234, src.length);
        }
        return BTH + op.headerLength();
    }

    /** One message: every segment built, ICRC'd, checked and delivered. */
    void message(boolean checkOnReceive) {
        for (int k = 0; k < segments; k++) {
            ByteBuf f = frames[k];
            int payload = writeHeaders(k);
            int icrcAt = payload + mtu;
            // sender: gather from the source region, ICRC (PacketWriter.finish does exactly this call)
            f.setBytes(payload, src, k * mtu, mtu);
            f.setIntLE(icrcAt, txIcrc.compute(f, IP, 4, Ipv4.MIN_LENGTH, f, UDP, BTH, icrcAt));
            // receiver: ICRC check (SoftNic.onFrame), scatter into the destination region
            if (checkOnReceive && !rxIcrc.verify(parsed[k])) {
                badIcrc++;
            }
            f.getBytes(payload, dst, k * mtu, mtu);
        }
    }

    /** Runs messages for {@code nanos}; returns payload Gb/s. */
    double run(long nanos, boolean checkOnReceive) {
        long messages = 0;
        long start = System.nanoTime();
        long end = start + nanos;
        long now;
        do {
            for (int i = 0; i < 16; i++) {
                message(checkOnReceive);
            }
            messages += 16;
            now = System.nanoTime();
        } while (now < end);
        return messages * (double) src.length * 8 / (now - start);
    }

    @Override
    public void close() {
        for (ByteBuf f : frames) {
            f.release();
        }
    }
}
