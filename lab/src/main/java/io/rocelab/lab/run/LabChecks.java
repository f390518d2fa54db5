package io.rocelab.lab.run;

import io.rocelab.lab.expect.Evaluator;
import io.rocelab.lab.expect.ExpressionException;
import io.rocelab.lab.labfile.ExpectSpec;
import io.rocelab.lab.labfile.LabFile;
import io.rocelab.lab.labfile.RunSpec;
import java.util.ArrayList;
import java.util.List;

/** A lab's {@code expect:} claims: checked against the file before a run, evaluated after it. */
public final class LabChecks {
    private LabChecks() {
    }

    /**
     * @return one line per check that cannot be evaluated against the lab's runs (an unknown name,
     *         attribute or function, a series no probe samples), {@code FILE:LINE:COL: expect[i].check: why}
     */
    public static List<String> problems(LabFile lab) {
        List<RunData> planned = new ArrayList<>();
        for (RunSpec run : lab.runs()) {
            RunData d = new RunData(run.variant(), run.durationNanos(), run.probes().kinds(), Probes.names(run));
            Probes.plan(run, d);
            CollectiveRecord.plan(d);
            planned.add(d);
        }
        Evaluator ev = Evaluator.checking(new LabMetrics(planned));
        List<String> out = new ArrayList<>();
        for (ExpectSpec e : lab.expect()) {
            try {
                ev.holds(e.check());
            } catch (ExpressionException x) {
                out.add(e.loc() + ": " + e.path() + ": " + x.getMessage());
            }
        }
        return out;
    }

    /** @return each claim's outcome over the runs' data */
    public static List<LabReport.Outcome> evaluate(LabFile lab, List<LabRun> runs) {
        Evaluator ev = new Evaluator(new LabMetrics(runs.stream().map(LabRun::data).toList()));
        List<LabReport.Outcome> out = new ArrayList<>();
        for (ExpectSpec e : lab.expect()) {
            try {
                boolean pass = ev.holds(e.check());
                out.add(new LabReport.Outcome(e.claim(), e.check(), pass, ev.observed(e.check())));
            } catch (ExpressionException x) {
                out.add(new LabReport.Outcome(e.claim(), e.check(), false, "cannot evaluate: " + x.getMessage()));
            }
        }
        return out;
    }
}
