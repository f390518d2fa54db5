package io.rocelab.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.perftest.Verb;
import io.rocelab.perftest.oob.Gid;
import io.rocelab.perftest.oob.KeyRecord;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** Expected lines are perftest's BASIC_ADDR_FMT, READ_FMT, RDMA_FMT and PERF_GID_FMT printed by glibc. */
class AddressReportTest {

    @Test
    void writeShowsKeyAndAddressAndTheGidInDecimal() throws Exception {
        KeyRecord k = new KeyRecord(0, 1, 0x11, 0x38277a, 0x2d2, 0x55933fbb7000L,
                Gid.of(InetAddress.getByName("10.77.0.11")), 0);
        assertEquals(" local address: LID 0000 QPN 0x0011 PSN 0x38277a RKey 0x0002d2 VAddr 0x0055933fbb7000\n"
                + " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:11\n",
                AddressReport.render(AddressReport.Side.LOCAL, k, Verb.WRITE, true));
    }

    @Test
    void readAddsOutstandingReads() {
        KeyRecord k = new KeyRecord(1, 0x80, 0xabcdef, 0, 0xffffffffL, 1, null, 0);
        assertEquals(" remote address: LID 0x01 QPN 0xabcdef PSN 000000 OUT 0x80 RKey 0xffffffff VAddr 0x00000000000001\n",
                AddressReport.render(AddressReport.Side.REMOTE, k, Verb.READ, false));
    }

    @Test
    void sendAndAtomicShowOnlyTheQp() {
        KeyRecord k = new KeyRecord(0xffff, 1, 0, 5, 0x1234, 0x5678, null, 0);
        assertEquals(" local address: LID 0xffff QPN 000000 PSN 0x0005\n",
                AddressReport.render(AddressReport.Side.LOCAL, k, Verb.SEND, false));
        assertEquals(" local address: LID 0xffff QPN 000000 PSN 0x0005\n",
                AddressReport.render(AddressReport.Side.LOCAL, k, Verb.ATOMIC, false));
    }
}
