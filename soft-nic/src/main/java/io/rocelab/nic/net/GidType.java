package io.rocelab.nic.net;

/**
 * The type of a GID table entry on a RoCE port, as the Linux kernel keeps it ({@code enum
 * ib_gid_type} in ib_verbs.h): {@code IB_GID_TYPE_ROCE} (RoCEv1, IBA Annex A16: EtherType 0x8915
 * with a GRH) or {@code IB_GID_TYPE_ROCE_UDP_ENCAP} (RoCEv2, Annex A17: IP/UDP 4791). rdma-core
 * reports it as {@code ibv_query_gid_type}'s {@code IBV_GID_TYPE_ROCE_V1}/{@code _V2}; sysfs's
 * {@code gid_attrs/types/N} reads "IB/RoCE v1" or "RoCE v2"; {@code show_gids} prints "v1" or
 * "v2". A QP's path takes its encapsulation from the type of its source GID.
 */
public enum GidType {
    /** RoCEv1: the IB transport straight on Ethernet, one L2 domain. */
    ROCE_V1("v1", "IB/RoCE v1"),
    /** RoCEv2: over IP and UDP, routable; Linux rxe's only type. */
    ROCE_V2("v2", "RoCE v2");

    private final String shortName;
    private final String sysfsName;

    GidType(String shortName, String sysfsName) {
        this.shortName = shortName;
        this.sysfsName = sysfsName;
    }

    /** "v1" or "v2", as {@code show_gids} prints the VER column. */
    public String shortName() {
        return shortName;
    }

    /** As sysfs's {@code gid_attrs/types/N} reads. */
    public String sysfsName() {
        return sysfsName;
    }

    /** "v1"/"v2" (or "roce-v1"/"rocev2"...) to a type; null when it is neither. */
    public static GidType parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT).replace("roce", "").replace("-", "")
                .replace("_", "").replace(" ", "");
        return switch (t) {
            case "v1", "1" -> ROCE_V1;
            case "v2", "2" -> ROCE_V2;
            default -> null;
        };
    }
}
