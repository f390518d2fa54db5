package io.rocelab.codec.mad;

/**
 * IP-based service IDs (IBA Annex A11.2): {@code 0x0000000001 | protocol | port}, which is how
 * rdma_cm names a listening port in the REQ (its port spaces: RDMA_PS_TCP = 0x0106, RDMA_PS_UDP =
 * 0x0111, RDMA_PS_IPOIB = 0x0002).
 */
public final class CmServiceId {
    /** The prefix of IP-based service IDs, above the protocol byte and the port. */
    public static final long IP_PREFIX = 0x0000_0000_0100_0000L;
    public static final int PROTOCOL_TCP = 0x06;
    public static final int PROTOCOL_UDP = 0x11;

    private CmServiceId() {
    }

    /** The service ID of an IP protocol's port, as rdma_cm's {@code cma_get_service_id} builds it. */
    public static long ip(int protocol, int port) {
        if (protocol < 0 || protocol > 0xff || port < 0 || port > 0xffff) {
            throw new IllegalArgumentException("protocol 0..255 and port 0..65535: " + protocol + ", " + port);
        }
        return IP_PREFIX | (long) protocol << 16 | port;
    }

    /** True when {@code sid} is in the IP-based range of Annex A11. */
    public static boolean isIp(long sid) {
        return (sid & 0xffff_ffff_ff00_0000L) == IP_PREFIX;
    }

    public static int protocol(long sid) {
        return (int) (sid >>> 16) & 0xff;
    }

    public static int port(long sid) {
        return (int) sid & 0xffff;
    }

    /** {@code 0x0000000001064853 (TCP port 18515)}, or the bare hex for other service IDs. */
    public static String describe(long sid) {
        String hex = String.format("0x%016x", sid);
        if (!isIp(sid)) {
            return hex;
        }
        int p = protocol(sid);
        String proto = p == PROTOCOL_TCP ? "TCP" : p == PROTOCOL_UDP ? "UDP" : String.format("proto 0x%02x", p);
        return hex + " (" + proto + " port " + port(sid) + ")";
    }
}
