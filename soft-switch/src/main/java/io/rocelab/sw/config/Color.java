package io.rocelab.sw.config;

/**
 * The colour of a packet, which picks the WRED thresholds it meets at dequeue (SONiC
 * {@code WRED_PROFILE} green_/yellow_/red_ fields, SAI's packet colour). rocelab has no policer:
 * a packet's colour comes from the ingress port's {@code DSCP_TO_COLOR_MAP} (named after SAI's
 * DSCP-to-colour QoS map) and from the IEEE 802.1Q drop eligible indicator (DEI set = yellow,
 * 802.1Q 6.9.3); the worse of the two wins. Everything else is green.
 */
public final class Color {
    public static final int GREEN = 0;
    public static final int YELLOW = 1;
    public static final int RED = 2;
    private static final String[] NAMES = {"green", "yellow", "red"};

    private Color() {
    }

    /** @return {@code green}, {@code yellow} or {@code red} */
    public static String name(int color) {
        return NAMES[color];
    }

    /** @return the colour called {@code name}, or -1 */
    public static int parse(String name) {
        for (int c = 0; c < NAMES.length; c++) {
            if (NAMES[c].equals(name.trim().toLowerCase())) {
                return c;
            }
        }
        return -1;
    }
}
