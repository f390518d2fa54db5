/**
 * The soft NIC's transmit side (ns-3's {@code QbbNetDevice} / {@code RdmaEgressQueue} pull model):
 * {@link io.rocelab.nic.egress.NicEgress} is what the NIC's transmitter pulls from when the wire is
 * free (MAC control, then control frames by priority, then the QPs round robin, each an
 * {@link io.rocelab.nic.egress.EgressFlow}); PFC received from the link pauses priorities here
 * (IEEE 802.1Qbb, mlx5's {@code rx_prio<N>_pause*} counters in {@link io.rocelab.nic.egress.PfcCounters});
 * a QP's congestion-control rate becomes its next send time in its {@link io.rocelab.nic.egress.Pacer};
 * {@link io.rocelab.nic.egress.PfcStorm} makes the NIC the "rogue host" that keeps a priority paused.
 * Owner thread only.
 */
package io.rocelab.nic.egress;
