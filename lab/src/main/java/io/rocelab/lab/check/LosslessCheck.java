package io.rocelab.lab.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs every lossless check over a fabric and lays the findings out as a user reads them: one line each,
 * {@code FILE: KEY: what is wrong}, the same finding on several ports of a file as one line whose key
 * lists them ({@code PFC_WD|Ethernet0,Ethernet4: ...}), in the order the checks found them.
 */
public final class LosslessCheck {
    /** The checks, in the order their findings are printed. */
    static final List<FabricCheck> CHECKS = List.of(new PfcAgreement(), new ClassPath(), new LosslessQueue(),
        new HeadroomCheck(), new EcnBeforePfc(), new CnpClass(), new WatchdogCheck(), new PcpTrust(), new VxlanQos());

    private LosslessCheck() {
    }

    /** @return every finding of every check, each once */
    public static List<Finding> findings(FabricView fabric) {
        List<Finding> all = new ArrayList<>();
        for (FabricCheck c : CHECKS) {
            c.check(fabric, all);
        }
        return new ArrayList<>(new LinkedHashSet<>(all));
    }

    /** @return the findings as lines, those differing only in the port merged into one */
    public static List<String> lines(List<Finding> findings) {
        record Group(String file, String table, String suffix, String message) {
        }
        Map<Group, Set<String>> groups = new LinkedHashMap<>();
        Map<Group, Finding> first = new LinkedHashMap<>();
        for (Finding f : findings) {
            Group g = new Group(f.file(), f.table(), f.suffix(), f.message());
            groups.computeIfAbsent(g, k -> new LinkedHashSet<>()).add(f.entry());
            first.putIfAbsent(g, f);
        }
        List<String> out = new ArrayList<>();
        for (var e : groups.entrySet()) {
            Finding f = first.get(e.getKey());
            String key = f.key(String.join(",", e.getValue()));
            out.add(f.file() + ": " + key + ": " + f.message());
        }
        return out;
    }

    /**
     * @param lines    how many finding lines there were
     * @param lossless whether any port the class may cross has PFC on a priority
     * @return the last line: how many findings
     */
    public static String countLine(int lines, boolean lossless) {
        if (lines == 0) {
            return lossless ? "0 findings: the lossless class is configured alike along its paths"
                : "0 findings: no port has PFC, a lossy fabric has no lossless class to check";
        }
        return lines + (lines == 1 ? " finding" : " findings");
    }

    /** @return whether some port of the fabric that may carry the class has PFC on a priority */
    public static boolean hasLosslessPort(FabricView fabric) {
        for (var s : fabric.switches()) {
            for (var p : fabric.livePorts(s)) {
                if (p.pfcEnableMask() != 0) {
                    return true;
                }
            }
        }
        return false;
    }
}
