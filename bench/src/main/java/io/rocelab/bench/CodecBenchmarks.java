package io.rocelab.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.ib.Opcode;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Receive-side codec cost, each beside its floor from the same run: parse + ICRC check of an RC
 * RDMA WRITE ONLY frame against a bare {@link CRC32} over the same number of bytes in the same
 * buffer, and header-only decode of a small frame. One operation is one frame. {@link CodecBench}
 * runs them all and prints the ratios.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled")
public class CodecBenchmarks {
    public static final String POOLED_DIRECT = "pooledDirect";
    public static final String POOLED_HEAP = "pooledHeap";

    public static final int LARGE_PAYLOAD = 4096;
    public static final int SMALL_PAYLOAD = 64;
    /** The 8 bytes of 0xFF that stand in for the LRH at the start of the ICRC. */
    private static final int LRH_STANDIN = 8;

    @Param({POOLED_DIRECT, POOLED_HEAP})
    public String buffer;

    private ByteBuf large;
    private ByteBuf small;
    private final ParsedFrame parsed = new ParsedFrame();
    private final Icrc icrc = new Icrc();
    private final CRC32 crc = new CRC32();

    // the floors' views of the same bytes the ICRC covers, set up once
    private boolean heap;
    private Floor largeFloor;
    private Floor smallFloor;

    /** A bare CRC32 region: as many bytes as the frame's ICRC covers, in the frame's own buffer. */
    private static final class Floor {
        final byte[] array;
        final int arrayOffset;
        final int length;
        final ByteBuffer nio;

        Floor(ByteBuf frame, int from, int length) {
            this.length = length;
            if (frame.hasArray()) {
                array = frame.array();
                arrayOffset = frame.arrayOffset() + from;
                nio = null;
            } else {
                array = null;
                arrayOffset = 0;
                // a view of the same memory; clear() before each use resets it to the whole region
                nio = frame.nioBuffer(from, length).slice();
            }
        }
    }

    /** The frame every benchmark uses, RC RDMA WRITE ONLY over IPv4, as rxe would send it. */
    public static RoceFrame writeOnly(int payloadLength) {
        byte[] payload = new byte[payloadLength];
        new Random(4791).nextBytes(payload);
        return new RoceFrame()
                .ethernet(0x02_00_00_00_00_02L, 0x02_00_00_00_00_01L)
                .ipv4(0x0A_00_00_01, 0x0A_00_00_02)
                .udp(0xC011, 4791)
                .opcode(Opcode.RC_RDMA_WRITE_ONLY)
                .destQp(0x000011)
                .psn(0x123456)
                .reth(0x7F00_0000_1000L, 0x1234, payloadLength)
                .payload(payload);
    }

    /** Bytes of the encoded frame (what a port would carry, without preamble and FCS). */
    public static int frameLength(int payloadLength) {
        return writeOnly(payloadLength).encodedLength();
    }

    /** Bytes the ICRC covers: the LRH stand-in and everything from the IP header up to the ICRC. */
    public static int icrcCoveredLength(int payloadLength) {
        ByteBuf b = writeOnly(payloadLength).encode(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT);
        try {
            ParsedFrame p = new ParsedFrame();
            check(p.parse(b), "icrcCoveredLength");
            return LRH_STANDIN + p.icrcOffset() - p.l3Offset();
        } finally {
            b.release();
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
        heap = switch (buffer) {
            case POOLED_DIRECT -> false;
            case POOLED_HEAP -> true;
            default -> throw new IllegalArgumentException("buffer must be " + POOLED_DIRECT + " or " + POOLED_HEAP
                    + ", got " + buffer);
        };
        large = build(alloc, LARGE_PAYLOAD);
        small = build(alloc, SMALL_PAYLOAD);
        largeFloor = floorOf(large);
        smallFloor = floorOf(small);
    }

    private ByteBuf build(ByteBufAllocator alloc, int payloadLength) {
        RoceFrame f = writeOnly(payloadLength);
        int n = f.encodedLength();
        ByteBuf b = heap ? alloc.heapBuffer(n, n) : alloc.directBuffer(n, n);
        f.encodeInto(b);
        if (heap != b.hasArray()) {
            throw new IllegalStateException(buffer + " gave " + b.getClass().getName());
        }
        // a benchmark that measured a rejected frame would measure the wrong thing
        check(parsed.parse(b), buffer + " " + payloadLength + " B");
        if (!icrc.verify(parsed) || parsed.opcode() != Opcode.RC_RDMA_WRITE_ONLY
                || parsed.payloadLength() != payloadLength) {
            throw new IllegalStateException("benchmark frame does not decode as built: " + payloadLength + " B");
        }
        return b;
    }

    private Floor floorOf(ByteBuf frame) {
        check(parsed.parse(frame), "floor");
        // the same count of bytes the ICRC covers, in the same buffer: the masked headers are
        // copied aside by the codec, here the floor simply starts 8 bytes before the IP header
        int length = LRH_STANDIN + parsed.icrcOffset() - parsed.l3Offset();
        return new Floor(frame, parsed.l3Offset() - LRH_STANDIN, length);
    }

    private static void check(DecodeError e, String what) {
        if (e != null) {
            throw new IllegalStateException(what + ": benchmark frame rejected: " + e.description());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        large.release();
        small.release();
    }

    /** Parse + ICRC check of a 4 KB-payload frame: what a receiver does per packet before the payload. */
    @Benchmark
    public void icrcVerifyWrite4k(Blackhole bh) {
        ParsedFrame p = parsed;
        bh.consume(p.parse(large));
        bh.consume(icrc.verify(p));
    }

    /** The floor for {@link #icrcVerifyWrite4k}: CRC32 over as many bytes, same buffer, nothing else. */
    @Benchmark
    public void bareCrc32(Blackhole bh) {
        bh.consume(crc(largeFloor));
    }

    /** Parse and read what demultiplexing needs (opcode, QP, PSN) of a 64 B-payload frame, no ICRC. */
    @Benchmark
    public void headerOnlyDecodeSmall(Blackhole bh) {
        ParsedFrame p = parsed;
        bh.consume(p.parse(small));
        bh.consume(p.opcode());
        bh.consume(p.destQp());
        bh.consume(p.psn());
    }

    /** Parse + ICRC check of a 64 B-payload frame, where the header work is most of the cost. */
    @Benchmark
    public void icrcVerifySmall(Blackhole bh) {
        ParsedFrame p = parsed;
        bh.consume(p.parse(small));
        bh.consume(icrc.verify(p));
    }

    /** The floor for {@link #icrcVerifySmall}. */
    @Benchmark
    public void bareCrc32Small(Blackhole bh) {
        bh.consume(crc(smallFloor));
    }

    private long crc(Floor f) {
        CRC32 c = crc;
        c.reset();
        if (heap) {
            c.update(f.array, f.arrayOffset, f.length);
        } else {
            ByteBuffer nio = f.nio;
            nio.clear();
            c.update(nio);
        }
        return c.getValue();
    }
}
