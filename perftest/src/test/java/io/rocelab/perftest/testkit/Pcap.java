package io.rocelab.perftest.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal reader of classic pcap files with Ethernet frames — just enough for the reference
 * captures, so that these tests do not depend on the capture reader being written in the codec.
 */
public final class Pcap {
    /** One captured frame. */
    public record Frame(int number, long timestampMicros, byte[] data) {
    }

    private Pcap() {
    }

    /** Every frame of a capture on the test class path ({@code /captures/NAME}). */
    public static List<Frame> read(String name) {
        try (InputStream in = Pcap.class.getResourceAsStream("/captures/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no capture /captures/" + name + " on the test class path");
            }
            return parse(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Frame> parse(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(0);
        if (magic == 0xd4c3b2a1) {
            b.order(ByteOrder.BIG_ENDIAN);
        } else if (magic != 0xa1b2c3d4) {
            throw new IllegalArgumentException("not a classic microsecond pcap file: magic 0x" + Integer.toHexString(magic));
        }
        if (b.getInt(20) != 1) {
            throw new IllegalArgumentException("not an Ethernet capture: link type " + b.getInt(20));
        }
        List<Frame> frames = new ArrayList<>();
        int pos = 24;
        int number = 1;
        while (pos + 16 <= file.length) {
            long seconds = Integer.toUnsignedLong(b.getInt(pos));
            long micros = Integer.toUnsignedLong(b.getInt(pos + 4));
            int captured = b.getInt(pos + 8);
            byte[] data = new byte[captured];
            System.arraycopy(file, pos + 16, data, 0, captured);
            frames.add(new Frame(number++, seconds * 1_000_000 + micros, data));
            pos += 16 + captured;
        }
        return frames;
    }
}
