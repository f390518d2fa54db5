package io.rocelab.lab.labfile;

import io.rocelab.sw.config.PfcWdAction;
import io.rocelab.sw.config.PfcWdConfig;
import io.rocelab.topology.qos.QosProfile;
import io.rocelab.topology.qos.QosProfiles;

/**
 * {@code qos:}: the fabric's QoS, a named profile ({@link QosProfiles}: {@code lossless} unless
 * given) and what the file tunes of it: the RoCE queue's ECN thresholds ({@code ecn: {kmin, kmax,
 * pmax}}), its lossless PG ({@code pfc: {xon, xoff, dynamic-th, headroom-type}}), the PFC watchdog
 * ({@code watchdog}: on, off, or {@code {detection, restoration, action, poll}}), the ETS weights
 * ({@code ets: {lossy, roce}}) and the lossy queues' dynamic threshold ({@code lossy-dynamic-th}).
 */
final class QosReader {
    private QosReader() {
    }

    /**
     * What {@code qos:} says.
     *
     * @param spec    what the file asked for, or null (no profile of that name, or not a mapping)
     * @param profile the profile tuned as asked, what the topology's switches are built with; or null
     */
    record Qos(QosSpec spec, QosProfile profile) {
    }

    /** @return the section's QoS (mistakes reported) */
    static Qos read(Section top) {
        Section s = top.section("qos", "profile", "ecn", "pfc", "watchdog", "ets", "lossy-dynamic-th", "flow-control");
        if (s == null) {
            return new Qos(null, null);
        }
        String name = s.string("profile", "lossless");
        QosProfile p = QosProfiles.named(name);
        if (p == null) {
            String near = Section.closest(name, QosProfiles.names());
            s.mistake("profile", "no QoS profile '" + name + "'" + (near != null ? " (did you mean '" + near + "'?)" : "")
                + "; known: " + String.join(", ", QosProfiles.names()));
            return new Qos(null, null);
        }
        long kmin = -1;
        long kmax = -1;
        double pmax = -1;
        if (s.has("ecn")) {
            Section e = s.section("ecn", "kmin", "kmax", "pmax");
            if (e != null) {
                kmin = e.bytes("kmin", p.ecnMinThreshold());
                kmax = e.bytes("kmax", p.ecnMaxThreshold());
                pmax = e.fraction("pmax", p.ecnMaxProbability());
                if (kmin > kmax) {
                    e.mistake("kmin", "Kmin " + kmin + " B is above Kmax " + kmax + " B");
                }
                p = p.withEcn(kmin, kmax, pmax);
            }
        }
        if (s.has("pfc")) {
            Section f = s.section("pfc", "xon", "xoff", "dynamic-th", "headroom-type");
            if (f != null) {
                if (!p.lossless()) {
                    s.mistake("pfc", "PFC thresholds need a lossless profile; '" + name + "' has no PFC");
                }
                String type = f.string("headroom-type", "static");
                if (!type.equals("static") && !type.equals("dynamic")) {
                    f.mistake("headroom-type", "the headroom type is static or dynamic (SONiC's headroom_type), not '"
                        + type + "'");
                }
                boolean dynamic = type.equals("dynamic");
                if (dynamic && (f.has("xoff") || f.has("xon"))) {
                    f.mistake("headroom-type", "a dynamic headroom is worked out from each port's speed and cable: "
                        + "give no xon or xoff with it");
                }
                long xoff = f.has("xoff") ? f.bytes("xoff", 0) : p.xoff();
                long xon = f.bytes("xon", p.xon());
                if (f.has("xon") && !f.has("xoff") && !dynamic) {
                    f.mistake("xon", "xon goes with an xoff (the headroom) of your own; without one each port "
                        + "takes the SN2700 profile of its speed and cable");
                }
                if (f.has("xoff") && xoff <= 0) {
                    f.mistake("xoff", "the headroom (xoff) must be above zero");
                }
                int th = (int) f.integer("dynamic-th", p.losslessDynamicTh(), -8, 8);
                p = p.withLosslessPg(xon, xoff, th, dynamic);
            }
        }
        boolean wdOff = false;
        PfcWdConfig wd = null;
        if (s.has("watchdog")) {
            Boolean onOff = Section.bool(s.get("watchdog"));
            if (onOff != null) {
                wdOff = !onOff;
                if (wdOff) {
                    p = p.withWatchdog(null);
                } else if (p.watchdog() == null) {
                    wd = new PfcWdConfig(PfcWdAction.DROP, 200_000_000L, 200_000_000L);
                    p = p.withWatchdog(wd);
                }
            } else {
                Section w = s.section("watchdog", "detection", "restoration", "action", "poll");
                if (w != null) {
                    String action = w.string("action", "drop");
                    PfcWdAction a = null;
                    for (PfcWdAction x : PfcWdAction.values()) {
                        if (x.name().equalsIgnoreCase(action)) {
                            a = x;
                        }
                    }
                    if (a == null) {
                        w.mistake("action", "the watchdog's action is drop, forward or alert, not '" + action + "'");
                        a = PfcWdAction.DROP;
                    }
                    wd = new PfcWdConfig(a, w.nanos("detection", 200_000_000L), w.nanos("restoration", 200_000_000L));
                    p = p.withWatchdog(wd);
                    if (w.has("poll")) {
                        long poll = w.nanos("poll", 200_000_000L);
                        if (poll < 1_000_000L || poll % 1_000_000L != 0) {
                            w.mistake("poll", "the watchdog polls every whole number of milliseconds (SONiC's "
                                + "POLL_INTERVAL), e.g. 1ms: " + w.text("poll"));
                        } else {
                            p = p.withWatchdogPoll(poll / 1_000_000L);
                        }
                    }
                }
            }
            if (!p.lossless() && (wd != null)) {
                s.mistake("watchdog", "the PFC watchdog needs a lossless profile; '" + name + "' has no PFC");
            }
        }
        int lossyW = -1;
        int roceW = -1;
        if (s.has("ets")) {
            Section e = s.section("ets", "lossy", "roce");
            if (e != null) {
                lossyW = (int) e.integer("lossy", p.lossyWeight(), 1, 100);
                roceW = (int) e.integer("roce", p.roceWeight(), 1, 100);
                p = p.withWeights(lossyW, roceW);
            }
        }
        if (s.has("lossy-dynamic-th")) {
            int th = (int) s.integer("lossy-dynamic-th", p.lossyDynamicTh(), -8, 8);
            p = p.withLossyDynamicTh(th);
        }
        p = linkFlowControl(s, name, p, wd != null);
        return new Qos(new QosSpec(name, kmin, kmax, pmax, wdOff, wd, lossyW, roceW), p);
    }

    /**
     * {@code flow-control: pfc | pause}: PFC on the RoCE priority (the default) or IEEE 802.3x PAUSE
     * on every switch port instead (rocelab's {@code PORT global_flow_control both}, no
     * {@code pfc_enable}), the lossless PG's profile the ports' pause thresholds. PAUSE needs a
     * lossless profile and takes no PFC watchdog.
     */
    private static QosProfile linkFlowControl(Section s, String name, QosProfile p, boolean watchdog) {
        String mode = s.string("flow-control", "pfc");
        if (mode.equals("pfc")) {
            return p;
        }
        if (!mode.equals("pause")) {
            s.mistake("flow-control", "link flow control is pfc or pause (IEEE 802.3x), not '" + mode + "'");
            return p;
        }
        if (!p.lossless()) {
            s.mistake("flow-control", "802.3x PAUSE takes its thresholds from the lossless PG; '" + name
                + "' has none");
            return p;
        }
        if (watchdog) {
            s.mistake("watchdog", "the PFC watchdog needs PFC; this fabric runs flow-control: pause");
        }
        return p.withLinkPause(true);
    }
}
