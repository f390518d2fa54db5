package io.rocelab.perftest;

/**
 * The transport a test runs on, as given to {@code -c}. perftest also knows XRC, DC, SRD and raw
 * Ethernet; they are hardware-specific and rocelab's NIC does not offer them.
 */
public enum ConnectionType {
    RC,
    UC,
    UD
}
