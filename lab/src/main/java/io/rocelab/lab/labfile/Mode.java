package io.rocelab.lab.labfile;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * How a lab runs: in deterministic virtual time (the default), on the wall clock, or on the Linux
 * network of the machine (network namespaces and veth pairs, real programs beside the soft NICs).
 */
public enum Mode {
    VIRTUAL, LIVE, NETNS;

    /** @return the name a file and the command line use: {@code virtual}, {@code live}, {@code netns} */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the modes of a file that names none: the two that need nothing of the machine */
    public static Set<Mode> defaults() {
        return EnumSet.of(VIRTUAL, LIVE);
    }

    /** @return the mode called {@code key}, or null */
    public static Mode of(String key) {
        for (Mode m : values()) {
            if (m.key().equals(key)) {
                return m;
            }
        }
        return null;
    }
}
