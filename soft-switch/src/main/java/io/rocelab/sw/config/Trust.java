package io.rocelab.sw.config;

/**
 * Which header a port believes when it picks a traffic class: the one whose map is bound to the
 * port in {@code PORT_QOS_MAP}. An untrusted port (no map bound) puts everything in TC 0 and
 * re-marks DSCP and PCP to 0, so that a host cannot claim the lossless class.
 */
public enum Trust {
    DSCP,
    DOT1P,
    NONE
}
