package io.rocelab.lab.run;

import io.rocelab.lab.expect.Evaluator;
import io.rocelab.lab.expect.ExpressionException;
import io.rocelab.lab.expect.Kind;
import io.rocelab.lab.expect.Metrics;
import io.rocelab.lab.expect.Value;
import io.rocelab.lab.labfile.ExpectSpec;
import io.rocelab.lab.labfile.LabFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A lab's claims over its runs at several seeds: each claim is evaluated at each seed over that seed's variants, as
 * {@link LabChecks#evaluate} does for one, and holds when it holds at every seed. A variant that did not run at a seed
 * is named as such: a claim over it fails ("variant lossy did not run at seed 2") when runs are merged, and is left
 * to the merge ("not evaluated here") in a run that ran some variants only ({@code lab run --variant}).
 */
final class SweepClaims {
    /**
     * The claims' outcomes.
     *
     * @param combined     per claim, over every seed (the claims a partial run cannot evaluate left out)
     * @param perSeed      per seed, per claim, at that seed alone (the same claims)
     * @param notEvaluated the claims left out, one line each (a partial run only)
     */
    record Evaluation(List<LabReport.Outcome> combined, Map<Long, List<LabReport.Outcome>> perSeed,
                      List<String> notEvaluated) {
    }

    private SweepClaims() {
    }

    /**
     * @param seeds     the seeds, in report order
     * @param present   per seed, the variants that ran there and their data
     * @param durations every variant's planned duration, ns (for {@code duration} over one that did not run)
     * @param partial   true for a run of some variants only: claims over the others are left out, not failed
     */
    static Evaluation evaluate(LabFile lab, List<Long> seeds, Map<Long, Map<String, RunData>> present,
                               Map<String, Long> durations, boolean partial) {
        List<ExpectSpec> claims = lab.expect();
        Map<Long, List<LabReport.Outcome>> perSeed = new LinkedHashMap<>();
        boolean[] skipped = new boolean[claims.size()];
        String[] skipReason = new String[claims.size()];
        for (long seed : seeds) {
            Pieces metrics = new Pieces(lab.variantNames(), present.getOrDefault(seed, Map.of()), durations, seed);
            Evaluator ev = new Evaluator(metrics);
            List<LabReport.Outcome> out = new ArrayList<>();
            for (int i = 0; i < claims.size(); i++) {
                ExpectSpec e = claims.get(i);
                metrics.missing = null;
                try {
                    boolean pass = ev.holds(e.check());
                    out.add(new LabReport.Outcome(e.claim(), e.check(), pass, ev.observed(e.check())));
                } catch (ExpressionException x) {
                    if (metrics.missing != null && partial) {
                        skipped[i] = true;
                        skipReason[i] = "variant " + metrics.missing + " did not run here";
                    }
                    out.add(new LabReport.Outcome(e.claim(), e.check(), false, "cannot evaluate: " + x.getMessage()));
                }
            }
            perSeed.put(seed, out);
        }
        List<LabReport.Outcome> combined = new ArrayList<>();
        List<String> notEvaluated = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            if (skipped[i]) {
                notEvaluated.add(claims.get(i).claim() + " (" + skipReason[i] + ")");
                continue;
            }
            boolean pass = true;
            List<String> observed = new ArrayList<>();
            for (long seed : seeds) {
                LabReport.Outcome o = perSeed.get(seed).get(i);
                pass &= o.pass();
                observed.add(seeds.size() == 1 ? o.observed() : "seed " + seed + ": " + o.observed());
            }
            ExpectSpec e = claims.get(i);
            combined.add(new LabReport.Outcome(e.claim(), e.check(), pass, String.join("; ", observed)));
        }
        if (!notEvaluated.isEmpty()) {
            for (Map.Entry<Long, List<LabReport.Outcome>> s : perSeed.entrySet()) {
                List<LabReport.Outcome> kept = new ArrayList<>();
                for (int i = 0; i < claims.size(); i++) {
                    if (!skipped[i]) {
                        kept.add(s.getValue().get(i));
                    }
                }
                s.setValue(kept);
            }
        }
        return new Evaluation(combined, perSeed, notEvaluated);
    }

    /**
     * The metrics at one seed: every variant the lab has, those that ran with their data; one that did not throws,
     * saying so, and is remembered ({@link #missing}).
     */
    private static final class Pieces implements Metrics {
        private final List<String> variants;
        private final Map<String, RunData> runs;
        private final Map<String, Long> durations;
        private final long seed;
        /** The variant the last evaluation needed and did not have, or null. */
        String missing;

        Pieces(List<String> variants, Map<String, RunData> runs, Map<String, Long> durations, long seed) {
            this.variants = variants;
            this.runs = runs;
            this.durations = durations;
            this.seed = seed;
        }

        private RunData run(String variant) {
            RunData r = runs.get(variant);
            if (r != null) {
                return r;
            }
            if (!variants.contains(variant)) {
                throw new ExpressionException("no variant '" + variant + "'");
            }
            missing = variant.isEmpty() ? "(the lab's one run)" : variant;
            throw new ExpressionException((variant.isEmpty() ? "seed " + seed + " did not run"
                : "variant " + variant + " did not run at seed " + seed) + " (it is missing from the runs merged)");
        }

        @Override
        public List<String> variants() {
            return variants;
        }

        @Override
        public List<String> names(String variant, Kind kind) {
            return run(variant).names(kind);
        }

        @Override
        public Value attribute(String variant, Kind kind, String name, String attribute) {
            return run(variant).value(kind, name, attribute);
        }

        @Override
        public double durationSeconds(String variant) {
            RunData r = runs.get(variant);
            if (r != null) {
                return r.durationNanos() / 1e9;
            }
            Long planned = durations.get(variant);
            if (planned == null) {
                throw new ExpressionException("no variant '" + variant + "'");
            }
            return planned / 1e9;
        }
    }
}
