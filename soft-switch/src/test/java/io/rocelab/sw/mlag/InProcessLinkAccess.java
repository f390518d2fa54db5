package io.rocelab.sw.mlag;

import io.rocelab.fabric.link.InProcessLink;

/** The cables of an {@link MlagPair} by what they join. */
final class InProcessLinkAccess {
    private InProcessLinkAccess() {
    }

    /** @return host h's cable to leaf {@code i} */
    static InProcessLink hostLink(MlagPair p, int i) {
        return p.linksOf.get(i).get(0);
    }
}
