package io.rocelab.codec.sflow;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;

/**
 * An sFlow version 5 datagram ({@code sample_datagram_v5}): the agent that sent it and its samples.
 *
 * @param agent        {@code agent_address}: the agent's IPv4 or IPv6 address
 * @param subAgentId   {@code sub_agent_id}: which of the agent's sub-agents (0: the only one)
 * @param sequence     {@code sequence_number}: incremented with each datagram the sub-agent sends
 * @param uptimeMillis {@code uptime}: milliseconds since the agent started (32-bit, wraps)
 * @param samples      {@code samples<>}
 */
public record SflowDatagram(InetAddress agent, long subAgentId, long sequence, long uptimeMillis,
                            List<SflowSample> samples) {
    public SflowDatagram {
        Objects.requireNonNull(agent, "agent");
        samples = List.copyOf(samples);
    }
}
