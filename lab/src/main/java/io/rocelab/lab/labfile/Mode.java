package io.rocelab.lab.labfile;

import java.util.Locale;

/** How a lab runs: in deterministic virtual time (the default) or on the wall clock. */
public enum Mode {
    VIRTUAL, LIVE;

    /** @return the name a file and the command line use: {@code virtual}, {@code live} */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
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
