package io.rocelab.perftest.report;

import io.rocelab.perftest.CFormat;
import io.rocelab.perftest.oob.PingpongRecord;

/**
 * The lines rdma-core's {@code ibv_rc_pingpong} (and its UC/UD siblings) print: the two address
 * lines around the exchange and the two summary lines after the run.
 */
public final class PingpongReport {
    private PingpongReport() {
    }

    /** {@code "  local address:  LID 0x0000, QPN 0x000011, PSN 0xc3aaf4, GID ::ffff:10.77.0.11"}. */
    public static String localAddress(PingpongRecord r) {
        return "  local address:  " + fields(r);
    }

    /**
     * ibv_ud_pingpong's local line, which has a colon before the GID where the others have a comma:
     * {@code "  local address:  LID 0x0000, QPN 0x000011, PSN 0x3f2a1b: GID ::ffff:10.77.0.1"}.
     */
    public static String localAddressUd(PingpongRecord r) {
        return "  local address:  LID 0x" + CFormat.hex(r.lid(), 4) + ", QPN 0x" + CFormat.hex(r.qpn(), 6)
                + ", PSN 0x" + CFormat.hex(r.psn(), 6) + ": GID " + r.gid().toIpv6Text() + "\n";
    }

    /** The same for the peer's record; note the single space after the colon. */
    public static String remoteAddress(PingpongRecord r) {
        return "  remote address: " + fields(r);
    }

    private static String fields(PingpongRecord r) {
        return "LID 0x" + CFormat.hex(r.lid(), 4) + ", QPN 0x" + CFormat.hex(r.qpn(), 6)
                + ", PSN 0x" + CFormat.hex(r.psn(), 6) + ", GID " + r.gid().toIpv6Text() + "\n";
    }

    /**
     * The two summary lines. pingpong counts each iteration's message both ways, and times in
     * microseconds held as a C {@code float}, whose rounding shows in the printed figures; both
     * are reproduced.
     *
     * @param size       bytes per message
     * @param iterations iterations run
     * @param micros     elapsed microseconds from the first post to the last completion
     */
    public static String summary(long size, int iterations, long micros) {
        float usec = micros;
        long bytes = size * iterations * 2;
        return bytes + " bytes in " + CFormat.fixed(usec / 1000000., 2) + " seconds = "
                + CFormat.fixed(bytes * 8. / usec, 2) + " Mbit/sec\n"
                + iterations + " iters in " + CFormat.fixed(usec / 1000000., 2) + " seconds = "
                + CFormat.fixed(usec / iterations, 2) + " usec/iter\n";
    }
}
