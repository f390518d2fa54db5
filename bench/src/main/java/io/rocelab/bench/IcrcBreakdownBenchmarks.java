package io.rocelab.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Udp;
import java.nio.ByteBuffer;
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
 * Where the time of {@link CodecBenchmarks#icrcVerifyWrite4k} (and of the 64 B variant) goes, one
 * step of it per benchmark (average time per frame in ns), beside the floor and one candidate
 * rework of the ICRC computation. Not part of {@link CodecBench}'s default run: a diagnostic,
 * run it with {@code java -jar bench/target/benchmarks.jar IcrcBreakdown}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled")
public class IcrcBreakdownBenchmarks {
    @Param({CodecBenchmarks.POOLED_DIRECT, CodecBenchmarks.POOLED_HEAP})
    public String buffer;

    @Param({"4096", "64"})
    public int payload;

    private ByteBuf frame;
    private final ParsedFrame parsed = new ParsedFrame();
    private final Icrc icrc = new Icrc();
    private final CRC32 crc = new CRC32();
    private final byte[] scratch = new byte[8 + 60 + Udp.LENGTH + Bth.LENGTH];
    private int l3;
    private int udp;
    private int bth;
    private int icrcOffset;
    /** The payload part of the ICRC (after the BTH) as a ByteBuffer view made once, for the direct case. */
    private ByteBuffer payloadView;

    @Setup(Level.Trial)
    public void setUp() {
        RoceFrame f = CodecBenchmarks.writeOnly(payload);
        int n = f.encodedLength();
        boolean heap = CodecBenchmarks.POOLED_HEAP.equals(buffer);
        frame = heap ? PooledByteBufAllocator.DEFAULT.heapBuffer(n, n) : PooledByteBufAllocator.DEFAULT.directBuffer(n, n);
        f.encodeInto(frame);
        if (parsed.parse(frame) != null || !icrc.verify(parsed)) {
            throw new IllegalStateException("benchmark frame does not verify");
        }
        l3 = parsed.l3Offset();
        udp = parsed.udpOffset();
        bth = parsed.bthOffset();
        icrcOffset = parsed.icrcOffset();
        payloadView = frame.nioBuffer(bth + Bth.LENGTH, icrcOffset - bth - Bth.LENGTH);
        floorView = frame.nioBuffer(l3 - 8, 8 + icrcOffset - l3);
        if (inPlaceMaskSingleCrc() != parsed.icrc() || inPlaceMaskSingleCrcNio() != parsed.icrc()
                || parsed.parse(frame) != null || !icrc.verify(parsed)) {
            throw new IllegalStateException("in-place variant disagrees with Icrc");
        }
    }

    private ByteBuffer floorView;

    @TearDown(Level.Trial)
    public void tearDown() {
        frame.release();
    }

    /** The whole thing, as in CodecBenchmarks.icrcVerifyWrite4k / icrcVerifySmall. */
    @Benchmark
    public boolean parseAndVerify() {
        return parsed.parse(frame) == null && icrc.verify(parsed);
    }

    /** ParsedFrame.parse alone. */
    @Benchmark
    public Object parseOnly() {
        return parsed.parse(frame);
    }

    /** Icrc.verify alone, on a frame parsed in setup. */
    @Benchmark
    public boolean verifyOnly() {
        return icrc.verify(parsed);
    }

    /** The masked-header copy Icrc does (three getBytes into a scratch array, then the masks), no CRC. */
    @Benchmark
    public void maskedHeaderCopy(Blackhole bh) {
        bh.consume(copyMasked());
    }

    /** The masked-header copy and the CRC over those 56 bytes. */
    @Benchmark
    public long maskedHeaderCopyAndCrc() {
        int p = copyMasked();
        crc.reset();
        crc.update(scratch, 0, p);
        return crc.getValue();
    }

    /**
     * A candidate: IP, UDP and BTH headers are contiguous in a parsed frame, so one getBytes
     * instead of three, then the same masks and CRC.
     */
    @Benchmark
    public long maskedHeaderOneCopyAndCrc() {
        byte[] s = scratch;
        for (int i = 0; i < 8; i++) {
            s[i] = (byte) 0xFF;
        }
        int n = bth + Bth.LENGTH - l3;
        frame.getBytes(l3, s, 8, n);
        s[8 + Ipv4.TOS] = (byte) 0xFF;
        s[8 + Ipv4.TTL] = (byte) 0xFF;
        s[8 + Ipv4.CHECKSUM] = (byte) 0xFF;
        s[8 + Ipv4.CHECKSUM + 1] = (byte) 0xFF;
        s[8 + udp - l3 + Udp.CHECKSUM] = (byte) 0xFF;
        s[8 + udp - l3 + Udp.CHECKSUM + 1] = (byte) 0xFF;
        s[8 + bth - l3 + Bth.FECN_BECN] = (byte) 0xFF;
        crc.reset();
        crc.update(s, 0, 8 + n);
        return crc.getValue();
    }

    /** The CRC over what follows the BTH (RETH, payload), the way Icrc reaches the bytes. */
    @Benchmark
    public long payloadCrcAsIcrc() {
        crc.reset();
        int index = bth + Bth.LENGTH;
        int length = icrcOffset - index;
        if (frame.hasArray()) {
            crc.update(frame.array(), frame.arrayOffset() + index, length);
        } else {
            crc.update(frame.internalNioBuffer(index, length));
        }
        return crc.getValue();
    }

    /** The same bytes through a ByteBuffer view made once (direct) or the bare array (heap). */
    @Benchmark
    public long payloadCrcPrepared() {
        crc.reset();
        if (frame.hasArray()) {
            crc.update(frame.array(), frame.arrayOffset() + bth + Bth.LENGTH, icrcOffset - bth - Bth.LENGTH);
        } else {
            payloadView.clear();
            crc.update(payloadView);
        }
        return crc.getValue();
    }

    /** The floor: one CRC32 over as many bytes as the ICRC covers, in the same buffer (as CodecBenchmarks.bareCrc32). */
    @Benchmark
    public long floorCrc() {
        crc.reset();
        if (frame.hasArray()) {
            crc.update(frame.array(), frame.arrayOffset() + l3 - 8, 8 + icrcOffset - l3);
        } else {
            floorView.clear();
            crc.update(floorView);
        }
        return crc.getValue();
    }

    /**
     * A candidate for Icrc, not what it does today: mask the variant fields in the frame itself,
     * write the 8 bytes of 0xFF over the end of the Ethernet header, run ONE CRC32 over the
     * contiguous region, then restore the 15 bytes. Needs a writable buffer owned by the caller.
     */
    @Benchmark
    public int inPlaceMaskSingleCrc() {
        ByteBuf b = frame;
        int lrh = l3 - 8;
        long savedLrh = b.getLong(lrh);
        int savedTos = b.getByte(l3 + Ipv4.TOS);
        int savedTtl = b.getByte(l3 + Ipv4.TTL);
        int savedIpSum = b.getShort(l3 + Ipv4.CHECKSUM);
        int savedUdpSum = b.getShort(udp + Udp.CHECKSUM);
        int savedBth4 = b.getByte(bth + Bth.FECN_BECN);
        b.setLong(lrh, -1L);
        b.setByte(l3 + Ipv4.TOS, 0xFF);
        b.setByte(l3 + Ipv4.TTL, 0xFF);
        b.setShort(l3 + Ipv4.CHECKSUM, 0xFFFF);
        b.setShort(udp + Udp.CHECKSUM, 0xFFFF);
        b.setByte(bth + Bth.FECN_BECN, 0xFF);
        crc.reset();
        int length = icrcOffset - lrh;
        if (b.hasArray()) {
            crc.update(b.array(), b.arrayOffset() + lrh, length);
        } else {
            crc.update(b.internalNioBuffer(lrh, length));
        }
        b.setLong(lrh, savedLrh);
        b.setByte(l3 + Ipv4.TOS, savedTos);
        b.setByte(l3 + Ipv4.TTL, savedTtl);
        b.setShort(l3 + Ipv4.CHECKSUM, savedIpSum);
        b.setShort(udp + Udp.CHECKSUM, savedUdpSum);
        b.setByte(bth + Bth.FECN_BECN, savedBth4);
        return (int) crc.getValue();
    }

    /**
     * The same candidate with the save/mask/restore done through one NIO view of the frame
     * ({@code internalNioBuffer}: no allocation, a handful of plain absolute accesses instead of a
     * dozen bounds- and refcount-checked ByteBuf calls). Written for an option-less IPv4 header.
     */
    @Benchmark
    public int inPlaceMaskSingleCrcNio() {
        int lrh = l3 - 8;
        int length = icrcOffset - lrh;
        ByteBuffer nb = frame.internalNioBuffer(lrh, length);
        int base = nb.position();
        int ip = base + 8;
        int u = ip + (udp - l3);
        int t = ip + (bth - l3);
        long s0 = nb.getLong(base);
        long s1 = nb.getLong(ip);
        long s2 = nb.getLong(ip + 8);
        long s3 = nb.getLong(u);
        byte s4 = nb.get(t + Bth.FECN_BECN);
        nb.putLong(base, -1L);
        nb.put(ip + Ipv4.TOS, (byte) -1);
        nb.put(ip + Ipv4.TTL, (byte) -1);
        nb.putShort(ip + Ipv4.CHECKSUM, (short) -1);
        nb.putShort(u + Udp.CHECKSUM, (short) -1);
        nb.put(t + Bth.FECN_BECN, (byte) -1);
        crc.reset();
        crc.update(nb);
        nb.putLong(base, s0);
        nb.putLong(ip, s1);
        nb.putLong(ip + 8, s2);
        nb.putLong(u, s3);
        nb.put(t + Bth.FECN_BECN, s4);
        return (int) crc.getValue();
    }

    private int copyMasked() {
        byte[] s = scratch;
        for (int i = 0; i < 8; i++) {
            s[i] = (byte) 0xFF;
        }
        int p = 8;
        frame.getBytes(l3, s, p, Ipv4.MIN_LENGTH);
        s[p + Ipv4.TOS] = (byte) 0xFF;
        s[p + Ipv4.TTL] = (byte) 0xFF;
        s[p + Ipv4.CHECKSUM] = (byte) 0xFF;
        s[p + Ipv4.CHECKSUM + 1] = (byte) 0xFF;
        p += Ipv4.MIN_LENGTH;
        frame.getBytes(udp, s, p, Udp.LENGTH);
        s[p + Udp.CHECKSUM] = (byte) 0xFF;
        s[p + Udp.CHECKSUM + 1] = (byte) 0xFF;
        p += Udp.LENGTH;
        frame.getBytes(bth, s, p, Bth.LENGTH);
        s[p + Bth.FECN_BECN] = (byte) 0xFF;
        return p + Bth.LENGTH;
    }
}
