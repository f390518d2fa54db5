package io.rocelab.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.perftest.oob.Gid;
import io.rocelab.perftest.oob.PingpongRecord;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** Expected lines are rdma-core pingpong's printf formats printed by glibc with the same values. */
class PingpongReportTest {

    @Test
    void addressLines() throws Exception {
        PingpongRecord r = new PingpongRecord(0, 0x11, 0xc3aaf4, Gid.of(InetAddress.getByName("10.77.0.11")));
        assertEquals("  local address:  LID 0x0000, QPN 0x000011, PSN 0xc3aaf4, GID ::ffff:10.77.0.11\n",
                PingpongReport.localAddress(r));
        PingpongRecord v6 = new PingpongRecord(0x1a, 0x12, 0x7, Gid.of(InetAddress.getByName("fd77::10")));
        assertEquals("  remote address: LID 0x001a, QPN 0x000012, PSN 0x000007, GID fd77::10\n",
                PingpongReport.remoteAddress(v6));
    }

    @Test
    void udLocalLineHasAColonBeforeTheGid() throws Exception {
        // ibv_ud_pingpong's own printf: "... PSN 0x%06x: GID %s"; its remote line is the common one
        PingpongRecord r = new PingpongRecord(0, 0x11, 0x3f2a1b, Gid.of(InetAddress.getByName("10.77.0.1")));
        assertEquals("  local address:  LID 0x0000, QPN 0x000011, PSN 0x3f2a1b: GID ::ffff:10.77.0.1\n",
                PingpongReport.localAddressUd(r));
    }

    @Test
    void summaryLines() {
        assertEquals("819200 bytes in 0.12 seconds = 53.08 Mbit/sec\n"
                + "100 iters in 0.12 seconds = 1234.56 usec/iter\n", PingpongReport.summary(4096, 100, 123456));
        assertEquals("8192000 bytes in 2.81 seconds = 23.30 Mbit/sec\n"
                + "1000 iters in 2.81 seconds = 2812.34 usec/iter\n", PingpongReport.summary(4096, 1000, 2812345));
    }

    @Test
    void summaryKeepsTheFloatRoundingOfTheTime() {
        // 16777217 us does not fit a float: pingpong computes with 16777216
        assertEquals("384 bytes in 16.78 seconds = 0.00 Mbit/sec\n"
                + "3 iters in 16.78 seconds = 5592405.50 usec/iter\n", PingpongReport.summary(64, 3, 16777217));
    }
}
