package io.rocelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.expect.Series;
import java.util.List;
import org.junit.jupiter.api.Test;

class VariantSummaryTest {
    /** A rate sampled every 10 us for 1 ms: {@code before} until {@code switchUs}, then {@code after}. */
    private static Series rate(double before, double after, double switchUs) {
        double[] t = new double[100];
        double[] v = new double[100];
        for (int i = 0; i < t.length; i++) {
            t[i] = (i + 1) * 10e-6;
            v[i] = t[i] * 1e6 < switchUs ? before : after;
        }
        return new Series(t, v);
    }

    @Test
    void jainIsOneForEqualSharesAndOneOverNWhenOneTakesAll() {
        assertEquals(1.0, VariantSummary.jain(new double[] {5, 5, 5, 5}), 1e-12);
        assertEquals(0.25, VariantSummary.jain(new double[] {8, 0, 0, 0}), 1e-12);
        assertTrue(Double.isNaN(VariantSummary.jain(new double[] {0, 0})));
    }

    @Test
    void convergedIsTheStartOfTheFirstWindowFairToTheEnd() {
        // unequal until 500 us, equal after: the 400-600 us window still holds unequal samples
        double at = VariantSummary.converged(List.of(rate(90, 50, 500), rate(10, 50, 500)), 1e-3);
        assertEquals(600e-6, at, 1e-9);
        assertEquals(0, VariantSummary.converged(List.of(rate(50, 50, 0), rate(50, 50, 0)), 1e-3), 1e-12);
    }

    @Test
    void ratesThatDriftApartAgainOrOneFlowHaveNoConvergenceTime() {
        assertTrue(Double.isNaN(VariantSummary.converged(List.of(rate(50, 90, 900), rate(50, 10, 900)), 1e-3)));
        assertTrue(Double.isNaN(VariantSummary.converged(List.of(rate(50, 50, 0)), 1e-3)));
    }
}
