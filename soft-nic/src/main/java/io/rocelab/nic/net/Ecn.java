package io.rocelab.nic.net;

/** The ECN codepoints of the IP header's two low traffic-class bits (RFC 3168) that the NIC uses. */
public final class Ecn {
    /** ECT(0): what ConnectX puts on its CNPs and its DCQCN traffic. */
    public static final int ECT_0 = 2;
    /** CE: a switch on the path was congested. */
    public static final int CE = 3;

    private Ecn() {
    }
}
