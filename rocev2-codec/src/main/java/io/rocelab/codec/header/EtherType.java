package io.rocelab.codec.header;

/** EtherType values rocelab meets on the wire. */
public final class EtherType {
    public static final int IPV4 = 0x0800;
    public static final int ARP = 0x0806;
    /** IEEE 802.1Q customer VLAN tag. */
    public static final int VLAN = 0x8100;
    /** IEEE 802.1ad service VLAN tag (QinQ outer tag). */
    public static final int QINQ = 0x88A8;
    public static final int IPV6 = 0x86DD;
    /** IEEE 802.3 Annex 31B MAC Control: PAUSE and PFC (802.1Qbb). */
    public static final int MAC_CONTROL = 0x8808;
    /** IEEE 802.3 Annex 57A Slow Protocols: LACP (subtype 1), marker (subtype 2). */
    public static final int SLOW_PROTOCOLS = 0x8809;
    /**
     * RoCE (RoCEv1, IBA Annex A16): the InfiniBand GRH and transport straight on Ethernet, as
     * IEEE registers 0x8915 and Wireshark names it ("RDMA over Converged Ethernet").
     */
    public static final int ROCE = 0x8915;

    private EtherType() {
    }

    public static boolean isVlanTag(int etherType) {
        return etherType == VLAN || etherType == QINQ;
    }
}
