package io.rocelab.codec.capture;

import io.netty.buffer.Unpooled;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mutated and random files: whatever the bytes, reading gives packets or a
 * {@link CaptureFormatException}, never another exception, a hang or a leaked buffer. jqwik
 * reports the seed of any failing try so it can be replayed.
 */
class CaptureFuzzTest {

    private static final byte[] PCAPNG = validPcapng();
    private static final byte[] PCAP = validPcap();

    @Property(tries = 400)
    void mutatedPcapngGivesPacketsOrAFormatError(@ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int flips) {
        check(mutate(PCAPNG, seed, flips));
    }

    @Property(tries = 300)
    void mutatedPcapGivesPacketsOrAFormatError(@ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int flips) {
        check(mutate(PCAP, seed, flips));
    }

    @Property(tries = 200)
    void randomBlocksAfterAValidSectionHeader(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int length) {
        Random random = new Random(seed);
        byte[] garbage = new byte[length];
        random.nextBytes(garbage);
        // make block lengths plausible often enough to get past the first checks
        for (int i = 4; i + 4 <= garbage.length; i += 16) {
            if (random.nextBoolean()) {
                garbage[i] = (byte) (4 * random.nextInt(40));
                garbage[i + 1] = 0;
                garbage[i + 2] = 0;
                garbage[i + 3] = 0;
            }
        }
        byte[] header = CaptureBytes.pcapng().shb(ByteOrder.LITTLE_ENDIAN).idb(LinkType.ETHERNET, 0).toByteArray();
        check(CaptureBytes.concat(header, garbage));
    }

    private static void check(byte[] bytes) {
        ReadOutcome outcome = ReadOutcome.withinTimeLimit(bytes);
        if (outcome.error() != null) {
            assertTrue(outcome.error().offset() >= 0 && outcome.error().offset() <= bytes.length,
                    "offset inside the file: " + outcome.error().getMessage());
        }
    }

    /** Flips bytes, favouring the first 64 (headers) and sometimes cutting the file short. */
    private static byte[] mutate(byte[] original, long seed, int flips) {
        Random random = new Random(seed);
        byte[] bytes = original.clone();
        for (int i = 0; i < flips; i++) {
            int at = random.nextBoolean() ? random.nextInt(Math.min(64, bytes.length)) : random.nextInt(bytes.length);
            bytes[at] = random.nextInt(4) == 0 ? (byte) 0xFF : (byte) random.nextInt(256);
        }
        return random.nextInt(4) == 0 ? Arrays.copyOf(bytes, random.nextInt(bytes.length)) : bytes;
    }

    private static byte[] validPcapng() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapngWriter writer = new PcapngWriter(out)) {
            writer.addInterface("a", LinkType.ETHERNET, 0, 1_000_000_000L, "first");
            writer.addInterface("b", LinkType.RAW, 64, 0, null);
            for (int i = 0; i < 6; i++) {
                writer.write(i % 2, 1_000_000_007L * i, Unpooled.wrappedBuffer(new byte[3 + i * 7]),
                        i % 3 == 0 ? null : "comment " + i, PacketDirection.values()[i % 3]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] validPcap() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapWriter writer = new PcapWriter(out)) {
            writer.addInterface("a", LinkType.ETHERNET, 0, 0, null);
            for (int i = 0; i < 6; i++) {
                writer.write(0, 1_000_000_007L * i, Unpooled.wrappedBuffer(new byte[5 + i * 9]), null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
