package io.rocelab.codec.capture;

import java.io.IOException;

/**
 * A capture file that is truncated, corrupt or not a capture file at all. The message names the
 * file, the byte offset where reading went wrong and what was wrong there, so a user can look at
 * the spot with a hex dump. It is an {@link IOException}: callers that read files handle it
 * already, and a bad file is an input problem, not a programming error.
 */
public class CaptureFormatException extends IOException {

    private final String source;
    private final long offset;

    /**
     * @param source  the file (or other source) being read
     * @param offset  byte offset in the source where the problem was found
     * @param problem what was wrong, in words
     */
    public CaptureFormatException(String source, long offset, String problem) {
        super(source + ": at offset " + offset + " (0x" + Long.toHexString(offset) + "): " + problem);
        this.source = source;
        this.offset = offset;
    }

    /** The file (or other source) that was being read. */
    public String source() {
        return source;
    }

    /** Byte offset in the source where the problem was found. */
    public long offset() {
        return offset;
    }
}
