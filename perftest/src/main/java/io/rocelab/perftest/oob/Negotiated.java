package io.rocelab.perftest.oob;

import io.rocelab.perftest.Mtu;

/**
 * What two perftest sides agreed on before creating their QPs.
 *
 * @param peerVersion the other side's version, which shapes the rest of the exchange
 * @param systemData  the larger page and cache-line sizes of the two
 * @param mtu         the smaller port MTU of the two
 */
public record Negotiated(PerftestVersion peerVersion, SystemData systemData, Mtu mtu) {
}
