package io.rocelab.nic;

/**
 * The congestion notification packet as ConnectX NICs send it (RoCEv2, IBA annex A17.9.2; the
 * ConnectX-4 Lx CNP among the project's golden vectors is the model): BTH opcode 0x81 with BECN
 * set, P_Key 0xFFFF, PSN 0, no AckReq, 16 reserved zero bytes, ICRC; IP DSCP {@code np_cnp_dscp}
 * with ECT(0), UDP source port 0.
 */
final class Cnp {
    static final int PKEY = 0xFFFF;
    static final int UDP_SOURCE_PORT = 0;
    static final int RESERVED_BYTES = 16;

    private Cnp() {
    }
}
