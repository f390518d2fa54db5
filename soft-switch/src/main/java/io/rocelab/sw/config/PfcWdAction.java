package io.rocelab.sw.config;

/** SONiC PFC watchdog actions ({@code PFC_WD|EthernetN action}). */
public enum PfcWdAction {
    /** Ignore PFC on the stormed queue and drop its packets, egress and ingress. */
    DROP,
    /** Ignore PFC on the stormed queue and keep transmitting. */
    FORWARD,
    /** Only count and report the storm. */
    ALERT
}
