package io.rocelab.topology.workload;

/**
 * A flow's alternate path (IBA 17.2.8; verbs' {@code alt_port_num}, {@code alt_ah_attr},
 * {@code alt_timeout}): the source's QPs send by their port {@code port} to the address of the
 * destination's port {@code remotePort}, and the destination's QPs the other way. The flow's QPs
 * load it once connected and ask for REARM, so they arm on the peer's first packet and migrate when
 * the primary path fails (the requester's retries run out) or when the peer migrates (MigReq).
 *
 * @param port       the source's port of the alternate path, 1 or 2
 * @param remotePort the destination's port it goes to, 1 or 2; port 1 to port 1 is the primary path
 * @param ackTimeout the local ACK timeout on it (IBA exponent, 0..31), -1 for the flow's
 */
public record AltPath(int port, int remotePort, int ackTimeout) {
    public AltPath {
        if (port < 1 || port > 2) {
            throw new InvalidFlowException(java.util.List.of("alternate path: port must be 1 or 2, not " + port));
        }
        if (remotePort < 1 || remotePort > 2) {
            throw new InvalidFlowException(java.util.List.of(
                "alternate path: remote port must be 1 or 2, not " + remotePort));
        }
        if (port == 1 && remotePort == 1) {
            throw new InvalidFlowException(java.util.List.of(
                "alternate path: port 1 to the destination's port 1 is the primary path"));
        }
        if (ackTimeout < -1 || ackTimeout > 31) {
            throw new InvalidFlowException(java.util.List.of(
                "alternate path: ACK timeout must be 0..31 (IBA exponent), or -1 for the flow's, not " + ackTimeout));
        }
    }

    /** The source's port 2 to the destination's port 2, the flow's ACK timeout: a second plane. */
    public static AltPath secondPorts() {
        return new AltPath(2, 2, -1);
    }

    /** @return the ACK timeout exponent on it for a flow whose own is {@code flowTimeout} */
    public int timeoutOr(int flowTimeout) {
        return ackTimeout >= 0 ? ackTimeout : flowTimeout;
    }

    @Override
    public String toString() {
        return "alternate path port " + port + " to port " + remotePort
            + (ackTimeout >= 0 ? " (ACK timeout " + ackTimeout + ")" : "");
    }
}
