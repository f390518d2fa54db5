package io.rocelab.topology.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.random.SplitMix64;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Message sizes: fixed, and drawn from CDF files in the HPCC traffic generator's format. */
class SizeDistributionTest {
    private static SizeDistribution cdf(String text) {
        return SizeDistribution.cdf("test.cdf", new StringReader(text));
    }

    @Test
    void aFixedSizeIsAlwaysThatSize() {
        SizeDistribution s = SizeDistribution.fixed(65_536);
        SplitMix64 r = new SplitMix64(1);
        for (int i = 0; i < 100; i++) {
            assertEquals(65_536, s.sample(r));
        }
        assertEquals(65_536.0, s.meanBytes());
        assertEquals("65536 B", s.describe());
        assertThrows(IllegalArgumentException.class, () -> SizeDistribution.fixed(0));
    }

    /**
     * 100,000 samples of the web-search CDF with a fixed seed fall into the halves of its 11
     * segments (the CDF is linear within a segment, so each half holds half its probability) as a
     * chi-square test with 21 degrees of freedom allows at the 0.1 % level (46.8).
     */
    @Test
    void webSearchSamplesFollowTheCdf() {
        CdfSize s = (CdfSize) SizeDistribution.webSearch();
        long[] x = {0, 10_000, 20_000, 30_000, 50_000, 80_000, 200_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000,
            30_000_000};
        double[] p = {0, 15, 20, 30, 40, 53, 60, 70, 80, 90, 97, 100};
        int bins = 2 * (x.length - 1);
        double[] edges = new double[bins + 1];
        double[] expected = new double[bins];
        int n = 100_000;
        for (int i = 0; i < x.length - 1; i++) {
            edges[2 * i] = x[i];
            edges[2 * i + 1] = (x[i] + x[i + 1]) / 2.0;
            expected[2 * i] = expected[2 * i + 1] = n * (p[i + 1] - p[i]) / 200;
        }
        edges[bins] = x[x.length - 1];
        long[] seen = new long[bins];
        SplitMix64 r = new SplitMix64(42);
        double sum = 0;
        for (int k = 0; k < n; k++) {
            long v = s.sample(r);
            sum += v;
            int b = 0;
            while (b < bins - 1 && v > edges[b + 1]) {
                b++;
            }
            seen[b]++;
        }
        double chi2 = 0;
        for (int b = 0; b < bins; b++) {
            chi2 += (seen[b] - expected[b]) * (seen[b] - expected[b]) / expected[b];
        }
        assertTrue(chi2 < 46.8, "chi-square " + chi2 + " over " + bins + " bins: " + java.util.Arrays.toString(seen));
        assertEquals(1_711_250, s.meanBytes(), 1, "the mean of the piecewise-linear CDF");
        assertEquals(s.meanBytes(), sum / n, s.meanBytes() * 0.03, "the sample mean");
        assertEquals("cdf websearch (mean 1.7 MB)", s.describe());
        assertEquals(30_000_000, s.maxBytes());
    }

    @Test
    void aFirstPointAboveZeroIsAPointMass() {
        SizeDistribution s = cdf("# two sizes\n1000 50\n\n3000 100   # the rest\n");
        SplitMix64 r = new SplitMix64(3);
        int exactly1000 = 0;
        for (int i = 0; i < 10_000; i++) {
            long v = s.sample(r);
            assertTrue(v >= 1000 && v <= 3000, "sample " + v);
            exactly1000 += v == 1000 ? 1 : 0;
        }
        assertEquals(5000, exactly1000, 200, "half the samples are the first point's size");
        assertEquals(1000 * 0.5 + 2000 * 0.5, s.meanBytes(), 1e-9);
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', value = {
        "0 0\\n1000 50\\n500 100|3|test.cdf line 3: sizes must ascend: 500 after 1000",
        "0 0\\n1000 50\\n2000 40\\n3000 100|3|test.cdf line 3: percents must ascend: 40 after 50",
        "# sizes\\n\\n1000 10 20\\n|3|test.cdf line 3: expected two columns, size in bytes and cumulative percent, got 3: '1000 10 20'",
        "0 0\\nlots 50\\n|2|test.cdf line 2: size is not a number: 'lots'",
        "0 0\\n100 half\\n|2|test.cdf line 2: percent is not a number: 'half'",
        "0 0\\n100 101\\n|2|test.cdf line 2: percent must be 0..100, not 101",
        "0 0\\n-5 10\\n|2|test.cdf line 2: size must be a whole number of bytes >= 0, not '-5'",
        "0 0\\n100 50\\n200 90\\n|3|test.cdf line 3: the last point must be at 100 %, not 90",
        "0 0\\n100 100\\n200 100\\n|3|test.cdf line 3: a point after the one at 100 %",
    })
    void aBadLineIsNamedByItsNumber(String text, int line, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> cdf(text.replace("\\n", "\n")));
        assertEquals(message, e.getMessage());
        assertTrue(e.getMessage().contains("line " + line + ":"));
    }

    @Test
    void anEmptyFileHasNoPoints() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> cdf("# nothing\n\n"));
        assertEquals("test.cdf: no points (lines of size and cumulative percent)", e.getMessage());
    }
}
