/**
 * Fabrics as data, and the fabric that runs them.
 *
 * <ul>
 *   <li>{@link io.rocelab.topology.model}: hosts, switches, links and their attachment points, as
 *       immutable records checked as a whole ({@link io.rocelab.topology.model.Topology}).</li>
 *   <li>{@link io.rocelab.topology.qos}: QoS profiles (lossless, lossy) named once for a whole fabric.</li>
 *   <li>{@link io.rocelab.topology.route}: routes filled in from the wiring, static ECMP or eBGP.</li>
 *   <li>{@link io.rocelab.topology.generate}: leaf-spine and k-ary fat tree generators, addressing and
 *       ECMP routes.</li>
 *   <li>{@link io.rocelab.topology.fabric}: soft NICs, soft switches and in-process links built from a
 *       topology, on one virtual-time scheduler or on an event loop per NIC and per switch.</li>
 *   <li>{@link io.rocelab.topology.workload}: traffic (flows of RDMA messages) run on a fabric.</li>
 *   <li>{@link io.rocelab.topology.timeline}: events applied to a running fabric and its workload.</li>
 * </ul>
 */
package io.rocelab.topology;
