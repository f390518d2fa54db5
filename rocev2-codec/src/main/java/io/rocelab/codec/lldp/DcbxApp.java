package io.rocelab.codec.lldp;

/**
 * One entry of the Application Priority TLV (IEEE 802.1Qaz-2011 D.2.11, subtype 12; the DSCP
 * selector from 802.1Q-2014 D.2.11): traffic of a protocol goes at a priority. The RoCE entries a
 * switch advertises: UDP port 4791 (RoCEv2) and Ethertype 0x8915 (RoCEv1) at the lossless priority,
 * and, for a port that trusts DSCP, the DSCPs that map to it.
 *
 * @param priority 0..7
 * @param selector what {@code protocol} is: {@link #SELECTOR_ETHERTYPE}, {@link #SELECTOR_TCP},
 *                 {@link #SELECTOR_UDP}, {@link #SELECTOR_TCP_UDP} or {@link #SELECTOR_DSCP}
 * @param protocol the Ethertype, port number or DSCP, 16 bits
 */
public record DcbxApp(int priority, int selector, int protocol) {
    public static final int SELECTOR_ETHERTYPE = 1;
    /** Well-known port over TCP or SCTP. */
    public static final int SELECTOR_TCP = 2;
    /** Well-known port over UDP or DCCP. */
    public static final int SELECTOR_UDP = 3;
    /** Well-known port over TCP, SCTP, UDP or DCCP. */
    public static final int SELECTOR_TCP_UDP = 4;
    /** A DSCP value (802.1Q-2014). */
    public static final int SELECTOR_DSCP = 5;
    /** RoCEv2's UDP destination port. */
    public static final int ROCEV2_UDP_PORT = 4791;
    /** RoCEv1's Ethertype. */
    public static final int ROCEV1_ETHERTYPE = 0x8915;

    public DcbxApp {
        if (priority < 0 || priority > 7) {
            throw new IllegalArgumentException("priority must be 0..7: " + priority);
        }
        if (selector < 1 || selector > 7) {
            throw new IllegalArgumentException("selector must be 1..7: " + selector);
        }
        if (protocol < 0 || protocol > 0xFFFF) {
            throw new IllegalArgumentException("protocol must be 16 bits: " + protocol);
        }
    }

    /** RoCEv2 at {@code priority}. */
    public static DcbxApp rocev2(int priority) {
        return new DcbxApp(priority, SELECTOR_UDP, ROCEV2_UDP_PORT);
    }

    /** A DSCP at {@code priority}. */
    public static DcbxApp dscp(int dscp, int priority) {
        return new DcbxApp(priority, SELECTOR_DSCP, dscp);
    }
}
