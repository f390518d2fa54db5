/**
 * A timeline of events applied to a running fabric and its workload at their times: links down and
 * up, faults on a link, PFC storms, receivers that stop draining, flows that start or stop.
 */
package io.rocelab.topology.timeline;
