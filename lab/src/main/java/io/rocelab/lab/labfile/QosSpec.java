package io.rocelab.lab.labfile;

import io.rocelab.sw.config.PfcWdConfig;

/**
 * The fabric's QoS: a named profile and the tunables a file changed (null: the profile's).
 *
 * @param profile      {@code lossless} or {@code lossy}
 * @param ecnMinBytes  Kmin, or -1
 * @param ecnMaxBytes  Kmax, or -1
 * @param ecnMaxProbability Pmax, or -1
 * @param watchdogOff  true to turn the profile's watchdog off
 * @param watchdog     the watchdog to use instead of the profile's, or null
 * @param lossyWeight  ETS weight of queue 0, or -1
 * @param roceWeight   ETS weight of the RoCE queue, or -1
 */
public record QosSpec(String profile, long ecnMinBytes, long ecnMaxBytes, double ecnMaxProbability,
                      boolean watchdogOff, PfcWdConfig watchdog, int lossyWeight, int roceWeight) {
}
