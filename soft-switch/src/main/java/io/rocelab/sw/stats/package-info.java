/**
 * The counters the data path writes on the owner thread, named as SONiC shows them: each port's
 * ({@link io.rocelab.sw.stats.PortCounters}) and the FDB's ({@link io.rocelab.sw.stats.FdbCounters}).
 */
package io.rocelab.sw.stats;
