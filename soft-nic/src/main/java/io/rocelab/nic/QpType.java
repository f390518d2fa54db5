package io.rocelab.nic;

import io.rocelab.codec.ib.Transport;

/** Transport service types this NIC offers (IBA 9.8.x): Reliable/Unreliable Connected, Unreliable Datagram. */
public enum QpType {
    RC(Transport.RC), UC(Transport.UC), UD(Transport.UD);

    private final Transport transport;

    QpType(Transport transport) {
        this.transport = transport;
    }

    /** The transport whose opcodes (IBA Table 38's high three bits) this QP takes. */
    public Transport transport() {
        return transport;
    }
}
