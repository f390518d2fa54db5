package io.rocelab.codec.capture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What reading a whole, possibly corrupt, file gave: a number of packets, or a
 * {@link CaptureFormatException}. Anything else (another exception, a leaked buffer) fails the
 * test on the spot; {@link #withinTimeLimit} also fails a read that hangs. Tests that read many
 * files put one time limit around all of them instead, which is much cheaper.
 *
 * @param packets packets read before the end or the error
 * @param error   the format error, or null if the file read to its end
 */
record ReadOutcome(int packets, CaptureFormatException error) {

    private static final Duration TIME_LIMIT = Duration.ofSeconds(10);

    static ReadOutcome of(byte[] bytes) throws IOException {
        Path file = Files.createTempFile("rocelab-corrupt", ".cap");
        try {
            Files.write(file, bytes);
            return of(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    static ReadOutcome of(Path file) {
        TrackingAllocator allocator = new TrackingAllocator();
        ReadOutcome outcome = read(file, allocator);
        allocator.assertAllReleased("reading " + file);
        return outcome;
    }

    /** Like {@link #of(byte[])}, failing if reading takes more than ten seconds (a hang). */
    static ReadOutcome withinTimeLimit(byte[] bytes) {
        return assertTimeoutPreemptively(TIME_LIMIT, () -> of(bytes), () -> "reading did not finish in " + TIME_LIMIT);
    }

    private static ReadOutcome read(Path file, TrackingAllocator allocator) {
        int packets = 0;
        try (CaptureReader reader = CaptureReader.open(file, allocator)) {
            for (CaptureRecord record; (record = reader.next()) != null; ) {
                packets++;
                record.release();
            }
            return new ReadOutcome(packets, null);
        } catch (CaptureFormatException e) {
            if (!e.getMessage().contains("offset")) {
                fail("message does not name the offset: " + e.getMessage());
            }
            return new ReadOutcome(packets, e);
        } catch (Throwable t) {
            throw new AssertionError("a corrupt file must give CaptureFormatException, not " + t, t);
        }
    }

    /** The error, failing if the file read without one. */
    CaptureFormatException expectError() {
        if (error == null) {
            fail("expected a CaptureFormatException, but " + packets + " packets were read without error");
        }
        return error;
    }
}
