package io.rocelab.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.testkit.RxeCaptures;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Real Linux rxe traffic: every RoCEv2 frame decodes with a good ICRC and re-encodes byte for byte. */
class RxeCapturesTest {
    static Stream<Path> files() {
        return RxeCaptures.files().stream();
    }

    /**
     * vectors/README.md speaks of 3,101 frames; the files hold 3,153 UDP/4791 frames (counted
     * independently with a plain scan of the pcap records), and every one of them must pass.
     */
    @Test
    void everyRoceFrameOfEveryFileIsChecked() {
        int roce = 0;
        for (Path p : RxeCaptures.files()) {
            roce += checkFile(p);
        }
        assertEquals(3153, roce, "RoCEv2 frames in vectors/rxe");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void everyFrameDecodesAndReEncodes(Path file) {
        assertTrue(checkFile(file) > 0, "file holds RoCEv2 frames");
    }

    /** Checks every RoCEv2 frame of a file; returns how many there were. */
    private static int checkFile(Path file) {
        List<CaptureRecord> records = RxeCaptures.read(file);
        ParsedFrame f = new ParsedFrame();
        Icrc icrc = new Icrc();
        int roce = 0;
        try {
            for (int i = 0; i < records.size(); i++) {
                ByteBuf frame = records.get(i).content();
                String where = file.getFileName() + " frame " + (i + 1);
                DecodeError error = f.parse(frame);
                if (!f.isRoce()) {
                    continue;
                }
                roce++;
                assertNull(error, where);
                assertTrue(icrc.verify(f), where + ": ICRC");
                if (f.ipVersion() == 4) {
                    assertTrue(Ipv4.checksumOk(frame, f.l3Offset()), where + ": IPv4 checksum");
                }
                assertTrue(f.opcode().isKnown(), where + ": opcode " + f.opcode());
                RoceFrame decoded = RoceFrame.decode(f).recomputeIcrc();
                ByteBuf out = decoded.encode(UnpooledByteBufAllocator.DEFAULT);
                try {
                    assertEquals(ByteBufUtil.hexDump(frame), ByteBufUtil.hexDump(out), where + ": re-encode");
                } finally {
                    out.release();
                }
            }
        } finally {
            records.forEach(CaptureRecord::release);
        }
        return roce;
    }
}
