package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.BufferPool;
import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.WredProfile;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * ECN marks a lossless queue before PFC pauses its senders: DCQCN slows them on the marks, PFC is the
 * backstop. The marks start at the queue's {@code WRED_PROFILE green_min_threshold} (Kmin); the pause
 * comes when the ingress PGs feeding the queue reach their limit, in SAI's reading as rocelab's MMU
 * has it: reserved bytes ({@link BufferProfile#reservedBytes}) plus a shared limit of {@code dynamic_th}
 * n, 2^n times the pool's free bytes ({@code SAI_BUFFER_PROFILE_ATTR_SHARED_DYNAMIC_TH}), or
 * {@code static_th}. With an incast of N senders into one queue, N PGs fill together and each pauses at
 * {@code reserved + a·P / (1 + N·a)} (a = 2^n, P the pool), so the queue holds N times that when PFC
 * fires. A Kmin at or above it never marks before the pause. N is an assumption (the lab's largest
 * fan-in, or {@code --incast N}), at most the switch's other ports with the class; the fewer the
 * senders, the shallower the queue at the pause. A lab whose NICs run no congestion control has nothing
 * that reacts to the marks, and is not checked.
 */
final class EcnBeforePfc implements FabricCheck {
    @Override
    public void check(FabricView f, List<Finding> out) {
        if (!f.assume().ecnReacts()) {
            return;
        }
        for (SwitchView s : f.switches()) {
            Set<String> reported = new HashSet<>();
            List<PortConfig> live = f.livePorts(s);
            for (PortConfig p : live) {
                for (int tc = 0; tc < 8; tc++) {
                    if (!p.pfcEnabled(tc)) {
                        continue;
                    }
                    int q = p.tcToQueue()[tc];
                    WredProfile w = p.queues()[q].wred();
                    if (w == null || !w.green().ecn() || w.green().minThreshold() == Long.MAX_VALUE) {
                        continue;
                    }
                    Pause pause = pause(s, live, p, tc, f.assume().incast());
                    long kmin = w.green().minThreshold();
                    if (pause == null || kmin < pause.queueBytes() || !reported.add(w.name() + "|" + q)) {
                        continue;
                    }
                    out.add(new Finding(s.file(), "WRED_PROFILE", w.name(), "", "green_min_threshold " + kmin
                        + " (Kmin) is at or above the " + pause.queueBytes() + " bytes queue " + q + " of " + p.name()
                        + " holds when PFC fires: " + pause.senders() + " sender(s) fill as many lossless PGs ('"
                        + pause.profile().name() + "', " + threshold(pause.profile()) + " of " + pause.profile().pool()
                        + "'s " + pause.poolBytes() + " bytes) to " + pause.pgBytes() + " bytes each, and they pause"
                        + " before ECN marks; assumed an incast of " + f.assume().incast() + " (" + f.assume().incastWhy()
                        + "; " + f.assume().incastFlag() + " to change it)"));
                }
            }
        }
    }

    /** Where N ingress PGs of the class pause: the earliest of the switch's other live ports. */
    private record Pause(int senders, BufferProfile profile, long poolBytes, long pgBytes) {
        long queueBytes() {
            return senders * pgBytes;
        }
    }

    private static Pause pause(SwitchView s, List<PortConfig> live, PortConfig egress, int tc, int incast) {
        int feeders = 0;
        for (PortConfig i : live) {
            if (i != egress && i.pfcEnabled(tc) && lossless(i, tc)) {
                feeders++;
            }
        }
        int n = Math.max(1, Math.min(incast, feeders));
        Pause best = null;
        for (PortConfig i : live) {
            if (i == egress || !i.pfcEnabled(tc) || !lossless(i, tc)) {
                continue;
            }
            BufferProfile prof = i.pgProfiles()[i.tcToPg()[tc]];
            BufferPool pool = s.config().pools().get(prof.pool());
            if (pool == null) {
                continue;
            }
            long shared;
            if (prof.hasDynamicTh()) {
                double a = Math.pow(2, prof.dynamicTh());
                shared = (long) (a * pool.size() / (1 + n * a));
            } else if (prof.staticTh() >= 0) {
                shared = prof.staticTh();
            } else {
                shared = pool.size() / n;
            }
            Pause p = new Pause(n, prof, pool.size(), prof.reservedBytes() + shared);
            if (best == null || p.pgBytes() < best.pgBytes()) {
                best = p;
            }
        }
        return best;
    }

    private static boolean lossless(PortConfig p, int tc) {
        BufferProfile prof = p.pgProfiles()[p.tcToPg()[tc]];
        return prof != null && prof.lossless();
    }

    private static String threshold(BufferProfile p) {
        return p.hasDynamicTh() ? "dynamic_th " + p.dynamicTh() : p.staticTh() >= 0 ? "static_th " + p.staticTh()
            : "no threshold";
    }
}
