package io.rocelab.sw.config;

/**
 * SONiC {@code PFC_WD} for one port: a lossless queue paused for longer than the detection time
 * without transmitting is declared stormed; it is restored once no PFC frame has arrived for it for
 * the restoration time. SONiC's defaults are 200 ms for both.
 *
 * @param action           what happens to a stormed queue
 * @param detectionNanos   {@code detection_time}
 * @param restorationNanos {@code restoration_time}
 */
public record PfcWdConfig(PfcWdAction action, long detectionNanos, long restorationNanos) {
}
