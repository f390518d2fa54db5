package io.rocelab.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.perftest.AtomicType;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.TestType;
import io.rocelab.perftest.Verb;
import org.junit.jupiter.api.Test;

/**
 * The header blocks perftest 4.5-0.18's {@code ctx_print_test_info} prints for these settings,
 * written out literally: spaces, tabs ("\t") and which lines appear.
 */
class PerftestHeaderTest {
    private static final String RULE =
            "---------------------------------------------------------------------------------------\n";

    private static TestInfo.Builder rxe(Verb verb, TestType type) {
        return TestInfo.builder().verb(verb).testType(type).deviceName("rxe0").gidIndex(1).mtuBytes(1024);
    }

    @Test
    void writeBandwidthClient() {
        TestInfo t = rxe(Verb.WRITE, TestType.BW).client(true).txDepth(128).cqModeration(100).maxInline(0).build();
        assertEquals(RULE
                + "                    RDMA_Write BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: Unsupported\n"
                + " ibv_wr* API     : ON\n"
                + " TX depth        : 128\n"
                + " CQ Moderation   : 100\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " Max inline data : 0[B]\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + RULE, PerftestHeader.render(t));
    }

    /**
     * {@code ib_write_bw -O} (perftest's dual-port mode): ON, the QP count doubled by the options
     * (one QP per port here), and port 2's GID index after port 1's ({@code GID index2}).
     */
    @Test
    void dualPortWriteBandwidthClient() {
        TestInfo t = rxe(Verb.WRITE, TestType.BW).deviceName("rocelab0").client(true).txDepth(128)
                .cqModeration(100).maxInline(0).numQps(2).dualPort(true).gidIndex2(1).build();
        assertEquals(RULE
                + "                    RDMA_Write BW Test\n"
                + " Dual-port       : ON\t\tDevice         : rocelab0\n"
                + " Number of qps   : 2\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: Unsupported\n"
                + " ibv_wr* API     : ON\n"
                + " TX depth        : 128\n"
                + " CQ Moderation   : 100\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " GID index2      : 1\n"
                + " Max inline data : 0[B]\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + RULE, PerftestHeader.render(t));
    }

    @Test
    void writeLatencyServerShowsNoTxDepthAndNoModeration() {
        TestInfo t = rxe(Verb.WRITE, TestType.LAT).client(false).txDepth(1).maxInline(220).mtuBytes(4096)
                .pcieRelaxOrder("OFF").wrApi(false).build();
        assertEquals(RULE
                + "                    RDMA_Write Latency Test\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: OFF\n"
                + " ibv_wr* API     : OFF\n"
                + " Mtu             : 4096[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " Max inline data : 220[B]\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + RULE, PerftestHeader.render(t));
    }

    @Test
    void readBandwidthShowsOutstandingReadsInsteadOfInline() {
        TestInfo t = rxe(Verb.READ, TestType.BW).client(true).txDepth(128).cqModeration(1).outstandingReads(128)
                .numQps(4).build();
        assertEquals(RULE
                + "                    RDMA_Read BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 4\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: Unsupported\n"
                + " ibv_wr* API     : ON\n"
                + " TX depth        : 128\n"
                + " CQ Moderation   : 1\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " Outstand reads  : 128\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + RULE, PerftestHeader.render(t));
    }

    @Test
    void atomicTitleNamesTheOperation() {
        TestInfo t = rxe(Verb.ATOMIC, TestType.BW).atomicType(AtomicType.CMP_AND_SWAP).client(true).build();
        assertEquals("                    Atomic CMP_AND_SWAP BW Test", PerftestHeader.title(t));
        TestInfo lat = rxe(Verb.ATOMIC, TestType.LAT).atomicType(AtomicType.FETCH_AND_ADD).build();
        assertEquals("                    Atomic FETCH_AND_ADD Latency Test", PerftestHeader.title(lat));
    }

    @Test
    void sendServerOnUdShowsRxDepth() {
        TestInfo t = rxe(Verb.SEND, TestType.BW).connection(ConnectionType.UD).client(false).txDepth(128)
                .rxDepth(512).cqModeration(100).maxInline(0).gidIndex(-1).linkType("IB").build();
        assertEquals(RULE
                + "                    Send BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : UD\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: Unsupported\n"
                + " ibv_wr* API     : ON\n"
                + " RX depth        : 512\n"
                + " CQ Moderation   : 100\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : IB\n"
                + " Max inline data : 0[B]\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + RULE, PerftestHeader.render(t));
    }

    @Test
    void bidirectionalPostListWithEvents() {
        TestInfo t = rxe(Verb.SEND, TestType.BW).bidirectional(true).postList(4).events(true, 0).srq(true)
                .client(false).txDepth(128).rxDepth(512).cqModeration(4).maxInline(0).build();
        assertEquals(RULE
                + "                    Send Bidirectional Post List BW Test\n"
                + " Test with events. Using rxe0_comp0\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : ON\n"
                + " PCIe relax order: Unsupported\n"
                + " ibv_wr* API     : ON\n"
                + " TX depth        : 128\n"
                + " Post List       : 4\n"
                + " RX depth        : 512\n"
                + " CQ Moderation   : 4\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " Max inline data : 0[B]\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + RULE, PerftestHeader.render(t));
    }

    @Test
    void rdmaCmServerAsksForTheClient() {
        TestInfo t = rxe(Verb.WRITE, TestType.BW).client(false).cqModeration(100).rdmaCmQps(true)
                .rdmaCmExchange(true).tos(106).build();
        String text = PerftestHeader.render(t);
        String tail = " rdma_cm QPs\t : ON\n"
                + " Data ex. method : rdma_cm \tTOS    : 106\n"
                + RULE
                + " Waiting for client rdma_cm QP to connect\n"
                + " Please run the same command with the IB/RoCE interface IP\n"
                + RULE;
        assertEquals(tail, text.substring(text.length() - tail.length()));
    }

    @Test
    void waitingBanner() {
        assertEquals("\n************************************\n"
                + "* Waiting for client to connect... *\n"
                + "************************************\n", PerftestHeader.waitingForClient());
    }
}
