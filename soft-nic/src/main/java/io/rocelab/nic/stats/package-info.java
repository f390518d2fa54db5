/**
 * The soft NIC's counters ({@link io.rocelab.nic.stats.NicCounter}: rxe's hw counter names, the
 * drops rxe only logs, mlx5's per-priority PFC and congestion-control counters), kept per port in
 * a {@link io.rocelab.fabric.stats.CounterSet}. A leaf: every other package of the NIC counts
 * into it, it depends on none of them.
 */
package io.rocelab.nic.stats;
