package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Test helpers: test resources by classpath, and reading whole files into plain values. */
final class TestCaptures {

    private TestCaptures() {
    }

    /** A test resource as a file path, found on the classpath so tests do not depend on the working directory. */
    static Path resource(String name) {
        URL url = TestCaptures.class.getResource(name);
        if (url == null) {
            throw new IllegalStateException("test resource " + name + " is not on the classpath");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A record's fields and bytes as a plain value, so tests can compare whole files with equals and
     * release every buffer as soon as it is read.
     */
    record Packet(int interfaceId, long timestampNanos, byte[] data, long originalLength, int linkType,
                  String comment, PacketDirection direction) {

        static Packet of(CaptureRecord record) {
            return new Packet(record.interfaceId(), record.timestampNanos(), ByteBufUtil.getBytes(record.content()),
                    record.originalLength(), record.linkType(), record.comment(), record.direction());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Packet p && interfaceId == p.interfaceId && timestampNanos == p.timestampNanos
                    && Arrays.equals(data, p.data) && originalLength == p.originalLength && linkType == p.linkType
                    && java.util.Objects.equals(comment, p.comment) && direction == p.direction;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(data) ^ Long.hashCode(timestampNanos);
        }

        @Override
        public String toString() {
            return "Packet(if=" + interfaceId + ", t=" + timestampNanos + ", len=" + data.length + "/" + originalLength
                    + ", linktype=" + linkType + ", comment=" + comment + ", " + direction + ", "
                    + ByteBufUtil.hexDump(data, 0, Math.min(data.length, 16)) + ")";
        }
    }

    /** Every packet of a file, each record released as soon as it is copied. */
    static List<Packet> readAll(Path file) throws IOException {
        return readAll(file, ByteBufAllocator.DEFAULT);
    }

    static List<Packet> readAll(Path file, ByteBufAllocator allocator) throws IOException {
        try (CaptureReader reader = CaptureReader.open(file, allocator)) {
            return drain(reader);
        }
    }

    static List<Packet> drain(CaptureReader reader) throws IOException {
        List<Packet> packets = new ArrayList<>();
        for (CaptureRecord record; (record = reader.next()) != null; ) {
            try {
                packets.add(Packet.of(record));
            } finally {
                record.release();
            }
        }
        return packets;
    }

    /** Hex of a buffer's readable bytes. */
    static String hex(ByteBuf buf, int length) {
        return ByteBufUtil.hexDump(buf, buf.readerIndex(), length);
    }
}
