package io.rocelab.lab.labfile;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code expect:}: the lab's claims, each a check expression ({@code io.rocelab.lab.expect}) alone
 * or with the sentence it decides ({@code {claim, check}}). The expressions are parsed where they
 * are evaluated, against the runs' metrics; here each keeps where it is written.
 */
final class ClaimsReader {
    private ClaimsReader() {
    }

    /** @return the claims, in file order (mistakes reported) */
    static List<ExpectSpec> read(Section top) {
        List<ExpectSpec> out = new ArrayList<>();
        List<YNode> items = top.list("expect");
        for (int i = 0; i < items.size(); i++) {
            String path = "expect[" + i + "]";
            YNode n = items.get(i);
            if (n instanceof YNode.YScalar s && !s.isNull()) {
                out.add(new ExpectSpec(s.text(), s.text(), s.loc(), path));
                continue;
            }
            Section e = Section.of(n, path, top.problems(), "claim", "check");
            if (e == null) {
                continue;
            }
            String check = e.text("check");
            if (check == null) {
                e.missing("check", "the expression that decides the claim, e.g. lossless.switch.drops == 0");
                continue;
            }
            out.add(new ExpectSpec(e.string("claim", check), check, e.loc("check"), path + ".check"));
        }
        return out;
    }

    // ---------------------------------------------------------------------------------------------
    // one run
}
