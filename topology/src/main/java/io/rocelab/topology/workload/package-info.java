/**
 * Traffic that runs in virtual time: {@link io.rocelab.topology.workload.Flow}s of WRITE, READ,
 * SEND and UD SEND messages between a fabric's hosts, message sizes fixed or from an empirical CDF
 * ({@link io.rocelab.topology.workload.SizeDistribution}), Poisson background flows
 * ({@link io.rocelab.topology.workload.PoissonFlows}), and the engine that runs them from CQ events
 * on the NICs' owner threads ({@link io.rocelab.topology.workload.Workload}), with flow completion
 * times, rates, latencies and error counts ({@link io.rocelab.topology.workload.FlowResult}).
 */
package io.rocelab.topology.workload;
