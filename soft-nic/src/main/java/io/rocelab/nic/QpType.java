package io.rocelab.nic;

/** Transport service types this NIC offers (IBA 9.8.x): Reliable/Unreliable Connected, Unreliable Datagram. */
public enum QpType {
    RC, UC, UD
}
