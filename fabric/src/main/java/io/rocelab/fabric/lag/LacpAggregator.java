package io.rocelab.fabric.lag;

import io.rocelab.codec.header.Lacpdu;
import java.util.ArrayList;
import java.util.List;

/**
 * The selection logic of one aggregation (IEEE 802.1AX 6.4.14, one aggregator per key): a port is
 * selected when it hears a partner that can aggregate, and that partner is the aggregation's (the
 * same system and key as the ports already in it); the first partner heard becomes the
 * aggregation's and stays while any selected port has it. A port whose partner is another system
 * (a miscabled link) stays out. With {@code fallback}, an aggregation whose ports hear no partner
 * at all lets its first enabled port forward as a plain port (SONiC's {@code fallback}, for a host
 * that has not started LACP yet). Owner thread only.
 */
public final class LacpAggregator {
    private final List<LacpActor> ports = new ArrayList<>();
    private final boolean fallback;
    private Lacpdu.Info partner;
    private boolean reselecting;
    private boolean again;

    /** @param fallback forward on one port while no partner is heard */
    public LacpAggregator(boolean fallback) {
        this.fallback = fallback;
    }

    /** Adds a port; it takes part in the next selection. */
    public void add(LacpActor port) {
        ports.add(port);
        port.joined(this);
        reselect();
    }

    /** @return the ports, in the order added */
    public List<LacpActor> ports() {
        return List.copyOf(ports);
    }

    /** @return the partner system of the aggregation (priority, system and key), or null while there is none */
    public Lacpdu.Info partner() {
        return partner;
    }

    /** A port's partner or link changed: decide again which ports are in. */
    void reselect() {
        if (reselecting) {
            again = true;
            return;
        }
        reselecting = true;
        try {
            do {
                again = false;
                decide();
            } while (again);
        } finally {
            reselecting = false;
        }
    }

    private void decide() {
        if (partner != null && ports.stream().noneMatch(p -> p.selected() && candidate(p) && sameSystem(p.partner()))) {
            partner = null;
        }
        if (partner == null) {
            for (LacpActor p : ports) {
                if (candidate(p)) {
                    partner = p.partner();
                    break;
                }
            }
        }
        boolean anyPartner = false;
        LacpActor first = null;
        for (LacpActor p : ports) {
            anyPartner |= !p.defaulted() && p.portEnabled();
            if (first == null && p.portEnabled()) {
                first = p;
            }
        }
        for (LacpActor p : ports) {
            p.setSelected(partner != null && candidate(p) && sameSystem(p.partner()));
            p.setFallback(fallback && !anyPartner && p == first);
        }
    }

    private static boolean candidate(LacpActor p) {
        return p.portEnabled() && !p.defaulted() && p.partner().has(Lacpdu.AGGREGATION);
    }

    private boolean sameSystem(Lacpdu.Info other) {
        return other.systemPriority() == partner.systemPriority() && other.system() == partner.system()
            && other.key() == partner.key();
    }
}
