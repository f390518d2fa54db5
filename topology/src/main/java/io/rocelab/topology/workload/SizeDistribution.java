package io.rocelab.topology.workload;

import io.rocelab.fabric.random.SplitMix64;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Message sizes: one fixed size, or drawn from an empirical CDF. Sampling takes its randomness from
 * the generator it is given (seeded by the caller), so the same seed gives the same sizes.
 * Implementations are immutable and may be shared by flows.
 */
public interface SizeDistribution {

    /**
     * @param random the caller's seeded generator (one number drawn per sample)
     * @return a message size in bytes, {@code >= 1}
     */
    long sample(SplitMix64 random);

    /** @return the distribution's mean in bytes */
    double meanBytes();

    /** @return the largest size it can give, in bytes */
    long maxBytes();

    /** @return a short description for a report: {@code "65536 B"}, {@code "cdf websearch (mean 1.6 MB)"} */
    String describe();

    /**
     * @param bytes the size of every message, {@code >= 1}
     * @return that size every time
     */
    static SizeDistribution fixed(long bytes) {
        return new FixedSize(bytes);
    }

    /**
     * An empirical CDF in the format of the HPCC/ns-3 traffic generator's files ({@code traffic_gen/},
     * WebSearch and FbHdp): per line, two whitespace-separated columns, a size in bytes and the
     * cumulative probability in percent (0..100) of sizes up to it; sizes strictly ascending,
     * probabilities ascending, the last 100. {@code #} starts a comment; blank lines are skipped.
     * Between two points a sample is interpolated linearly (as that generator does); a first point
     * with a probability above 0 is a point mass at its size.
     *
     * @param name what {@link #describe()} calls it (e.g. the file name)
     * @param text the lines
     * @throws IllegalArgumentException naming the first bad line's number and what is wrong with it
     */
    static SizeDistribution cdf(String name, Reader text) {
        return CdfSize.parse(name, text);
    }

    /** The CDF of a file ({@link #cdf(String, Reader)}), named after the file. */
    static SizeDistribution cdf(Path file) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return cdf(file.getFileName().toString(), r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The web-search flow sizes measured by DCTCP (Alizadeh et al., SIGCOMM 2010), the mix the HPCC,
     * pFabric and DCQCN evaluations use: mostly small queries and updates, most bytes in flows of
     * 1-30 MB (mean about 1.6 MB).
     */
    static SizeDistribution webSearch() {
        return resource("websearch", "websearch.cdf");
    }

    private static SizeDistribution resource(String name, String file) {
        try (InputStream in = SizeDistribution.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + file);
            }
            return cdf(name, new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
