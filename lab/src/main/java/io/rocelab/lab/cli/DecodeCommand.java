package io.rocelab.lab.cli;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.FrameSummary;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureFormatException;
import io.rocelab.codec.capture.CaptureInterface;
import io.rocelab.codec.capture.CaptureReader;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.header.Ipv4;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code rocelab decode FILE}: one line per frame of a pcap or pcapng file, RoCEv2 in detail with
 * its ICRC checked, then totals. Exit 0 when every RoCEv2 frame is well-formed with a good ICRC,
 * 1 otherwise, 2 when the file cannot be read or turns out corrupt: one line that names the file
 * once and the offset where it went wrong, after the frames decoded up to there.
 */
@Command(name = "decode",
        description = {"Decode a pcap or pcapng capture: one line per frame, RoCEv2 in detail with its ICRC checked.",
            "RoCEv1 (EtherType 0x8915) frames are decoded and their ICRC checked too.",
            "Exit status: 0 every RoCEv2 frame well-formed with a good ICRC, 1 otherwise, 2 file unreadable."},
        mixinStandardHelpOptions = true)
public final class DecodeCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", description = "pcap or pcapng capture")
    Path file;

    @Option(names = {"-q", "--quiet"}, description = "print only problems and the totals")
    boolean quiet;

    @Spec
    CommandSpec spec;

    private final ParsedFrame parsed = new ParsedFrame();
    private final Icrc icrc = new Icrc();
    private final FrameSummary summary = new FrameSummary();
    private final DecodeTotals totals = new DecodeTotals();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        checkReadable(file);
        try (CaptureReader reader = CaptureReader.open(file)) {
            long first = Long.MIN_VALUE;
            int number = 0;
            CaptureRecord record;
            StringBuilder line = new StringBuilder(256);
            while ((record = reader.next()) != null) {
                try {
                    number++;
                    totals.frames++;
                    if (first == Long.MIN_VALUE) {
                        first = record.timestampNanos();
                    }
                    line.setLength(0);
                    boolean problem = describe(record, reader.interfaces(), number, record.timestampNanos() - first,
                            line);
                    if (!quiet || problem) {
                        out.println(line);
                    }
                } finally {
                    record.release();
                }
            }
        } catch (CaptureFormatException e) {
            out.flush();
            throw new UserError(e.getMessage()); // it starts with the file's name, then the offset
        } catch (IOException e) {
            out.flush();
            throw new UserError("cannot read " + file + ": " + reason(e));
        }
        out.println(totals.describe());
        out.flush();
        return totals.allRoceGood() ? 0 : 1;
    }

    /** What went wrong, without the path a file system exception's message starts with. */
    private static String reason(IOException e) {
        if (e instanceof FileSystemException f) {
            return f.getReason() != null ? f.getReason() : f.getClass().getSimpleName();
        }
        return e.getMessage();
    }

    private static void checkReadable(Path file) {
        if (!Files.exists(file)) {
            throw new UserError("no such file: " + file);
        }
        if (Files.isDirectory(file)) {
            throw new UserError(file + " is a directory, not a capture file");
        }
        if (!Files.isReadable(file)) {
            throw new UserError("cannot read " + file + ": permission denied");
        }
    }

    /** Formats one record; returns whether it is a problem (malformed or bad ICRC). */
    private boolean describe(CaptureRecord record, List<CaptureInterface> interfaces, int number, long relNanos,
                             StringBuilder line) {
        line.append(String.format("%6d %4d.%09d ", number, relNanos / 1_000_000_000L,
                Math.abs(relNanos % 1_000_000_000L)));
        if (interfaces.size() > 1 && record.interfaceId() < interfaces.size()) {
            String name = interfaces.get(record.interfaceId()).name();
            line.append('[').append(name == null || name.isEmpty() ? "if" + record.interfaceId() : name).append("] ");
        }
        if (record.linkType() != LinkType.ETHERNET) {
            totals.other++;
            line.append("link type ").append(record.linkType()).append(" (not Ethernet): not decoded");
            return false;
        }
        ByteBuf frame = record.content();
        DecodeError error = parsed.parse(frame);
        boolean problem = false;
        if (error != null) {
            problem = true;
            totals.malformed++;
            if (parsed.isRoce() || parsed.isRoceV1()) {
                totals.roce++;
                totals.roceV1 += parsed.isRoceV1() ? 1 : 0;
            }
            line.append("MALFORMED ").append(parsed.isRoce() ? "RoCEv2 " : parsed.isRoceV1() ? "RoCEv1 " : "")
                    .append(error.name().toLowerCase())
                    .append(": ").append(error.description()).append(" (").append(frame.readableBytes())
                    .append(" bytes)");
        } else if (io.rocelab.codec.VxlanFrame.innerOffset(parsed) > 0) {
            // RoCEv2 over VXLAN (RFC 7348): the outer packet, then the inner frame decoded and its ICRC checked
            line.append("VXLAN vni ").append(io.rocelab.codec.VxlanFrame.vni(parsed)).append(' ');
            summary.describe(parsed, line);
            ByteBuf inner = io.rocelab.codec.VxlanFrame.inner(parsed);
            line.append(": ");
            DecodeError innerError = parsed.parse(inner);
            if (innerError != null) {
                problem = true;
                totals.malformed++;
                line.append("MALFORMED inner ").append(innerError.name().toLowerCase()).append(": ")
                        .append(innerError.description());
            } else {
                summary.describe(parsed, line);
                problem = count(inner, line);
            }
        } else {
            summary.describe(parsed, line);
            problem = count(frame, line);
        }
        if (record.comment() != null) {
            line.append("  # ").append(record.comment());
        }
        return problem;
    }

    private boolean count(ByteBuf frame, StringBuilder line) {
        FrameKind kind = parsed.kind();
        switch (kind) {
            case ROCEV2, ROCEV1 -> {
                // RoCEv1 (EtherType 0x8915) has no IP header; its ICRC is IBA Annex A16's
                totals.roce++;
                if (kind == FrameKind.ROCEV1) {
                    totals.roceV1++;
                }
                boolean ipOk = parsed.ipVersion() != 4 || Ipv4.checksumOk(frame, parsed.l3Offset());
                boolean icrcOk = icrc.verify(parsed);
                if (!ipOk) {
                    line.append("  IP-CHECKSUM BAD");
                    totals.malformed++;
                }
                if (icrcOk) {
                    totals.icrcGood++;
                    line.append("  ICRC OK");
                } else {
                    totals.icrcBad++;
                    line.append(String.format("  ICRC BAD (carried 0x%08x, computed 0x%08x)", parsed.icrc(),
                            icrc.compute(parsed)));
                }
                return !ipOk || !icrcOk;
            }
            case ARP -> totals.arp++;
            case PFC, PAUSE -> totals.pfc++;
            default -> totals.other++;
        }
        return false;
    }
}
