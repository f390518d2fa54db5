/**
 * Collectives as workloads: the communication of AI training's collective operations (ring
 * all-reduce, all-gather, reduce-scatter, all-to-all, halving-doubling all-reduce) between a
 * fabric's soft NICs, as NCCL's IB transport moves it: RDMA WRITE with immediate on RC QPs, each
 * step waiting for the data it depends on ({@link io.rocelab.topology.collective.Schedule}), run by
 * {@link io.rocelab.topology.collective.Collectives} from CQ events on the NICs' owner threads, and
 * measured as nccl-tests measures it ({@link io.rocelab.topology.collective.CollectiveResult}).
 */
package io.rocelab.topology.collective;
