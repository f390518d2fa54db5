package io.rocelab.fabric.lldp;

import io.rocelab.codec.lldp.Lldpdu;

/**
 * What a port knows of its link partner (a row of IEEE 802.1AB-2016's remote systems MIB,
 * {@code lldpV2RemTable}): its last LLDPDU and when it came.
 *
 * @param index        the entry's number on this agent, counting from 1 (lldpctl's {@code RID},
 *                     the MIB's {@code lldpV2RemIndex}): a new neighbour gets a new one
 * @param pdu          its last LLDPDU
 * @param changedNanos when this information last changed (scheduler time): lldpctl's {@code Time}
 * @param heardNanos   when its last LLDPDU came
 * @param expiresNanos when it ages out unless another LLDPDU comes (heard + TTL)
 */
public record LldpNeighbor(int index, Lldpdu pdu, long changedNanos, long heardNanos, long expiresNanos) {
}
