package io.rocelab.lab.labfile;

import io.rocelab.topology.workload.SizeDistribution;
import java.io.IOException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.Map;

/**
 * The message-size CDF files a lab file names ({@code size-cdf}, relative to the file): each read
 * once from the lab's {@link LabSources} and checked as a CDF ({@link SizeDistribution#cdf}); the
 * distribution is immutable, so the flows and variants that name one file share it.
 */
final class SizeFiles {
    private final LabSources sources;
    private final Map<String, SizeDistribution> read = new HashMap<>();

    SizeFiles(LabSources sources) {
        this.sources = sources;
    }

    /**
     * @param path the file as written
     * @return its distribution, or null after a mistake at {@code key} (unreadable, or not a CDF: its own
     *         mistake names the line)
     */
    SizeDistribution cdf(Section s, String key, String path) {
        SizeDistribution d = read.get(path);
        if (d != null) {
            return d;
        }
        try {
            d = SizeDistribution.cdf(path, new StringReader(sources.read(path)));
        } catch (IOException e) {
            s.mistake(key, "cannot read '" + path + "': " + e.getMessage());
            return null;
        } catch (IllegalArgumentException e) {
            s.mistake(key, path + ": " + e.getMessage());
            return null;
        }
        read.put(path, d);
        return d;
    }
}
