package io.rocelab.topology.model;

import io.rocelab.nic.BondMode;

/**
 * A host's second NIC port, {@value Host#PORT2} (IBA port 2): a dual-port NIC with its own MAC and
 * IPv4 address on it, or, with a {@code bond}, both ports behind {@value Host#PORT}'s MAC and
 * addresses (RoCE LAG, as ConnectX under a Linux bond).
 *
 * @param mac      the port's MAC (port 1's when bonded)
 * @param ipv4     its IPv4 address (port 1's when bonded)
 * @param bond     how a bond shares the QPs between the ports, or null for two separate ports
 * @param lacpFast with {@link BondMode#LACP}: LACP's fast rate (Linux's {@code lacp_rate fast}), else slow
 */
public record SecondPort(long mac, int ipv4, BondMode bond, boolean lacpFast) {
    /** XORed into port 1's MAC for port 2's default: 02:00:00:00:00:01 gives 02:02:00:00:00:01. */
    public static final long DEFAULT_MAC_XOR = 0x00_02_00_00_00_00L;
    /** XORed into port 1's IPv4 address for port 2's default: 10.0.0.1 gives 10.128.0.1. */
    public static final int DEFAULT_IPV4_XOR = 0x00_80_00_00;

    /** @return whether the two ports are bonded */
    public boolean bonded() {
        return bond != null;
    }
}
