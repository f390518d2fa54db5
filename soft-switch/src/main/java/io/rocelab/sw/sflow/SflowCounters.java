package io.rocelab.sw.sflow;

import java.util.List;

/**
 * What an sFlow agent has done (rocelab's {@code show sflow counters}): datagrams built and sent,
 * and per port the samples taken.
 *
 * @param agentAddress the address the datagrams carry
 * @param datagrams    datagrams built (the last datagram sequence number)
 * @param sent         datagrams sent, one per datagram and collector
 * @param bytesSent    their UDP payload bytes
 * @param ports        per port, in port order
 */
public record SflowCounters(String agentAddress, long datagrams, long sent, long bytesSent, List<Port> ports) {
    public SflowCounters {
        ports = List.copyOf(ports);
    }

    /**
     * @param name           the port
     * @param ifIndex        its ifIndex
     * @param rate           its sampling rate, 0 when not sampled
     * @param pool           packets its sampler saw
     * @param ingressSamples flow samples of frames it received
     * @param egressSamples  flow samples of frames it sent
     * @param counterSamples counter samples of it
     */
    public record Port(String name, long ifIndex, int rate, long pool, long ingressSamples, long egressSamples,
                       long counterSamples) {
    }

    /** @return flow samples of every port, both ways */
    public long flowSamples() {
        return ports.stream().mapToLong(p -> p.ingressSamples() + p.egressSamples()).sum();
    }
}
