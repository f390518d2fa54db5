/**
 * SONiC's PFC watchdog ({@link io.rocelab.sw.pfcwd.PfcWatchdog}): finds lossless queues a pause storm
 * has stalled, applies the configured action, and keeps each watched queue's state and the counters
 * of {@code show pfcwd stats} ({@link io.rocelab.sw.pfcwd.QueueWatch}).
 */
package io.rocelab.sw.pfcwd;
