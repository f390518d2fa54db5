package io.rocelab.perftest.report;

import io.rocelab.perftest.TestType;
import io.rocelab.perftest.Verb;

/**
 * The block perftest prints before the traffic ({@code ctx_print_test_info}): the test title and
 * the settings in force, between two rules. Lines appear and disappear exactly as in perftest —
 * TX depth only for the side that sends, CQ moderation only for bandwidth, inline size or
 * outstanding reads depending on the verb — because users compare these blocks side by side.
 */
public final class PerftestHeader {
    private static final String INDENT = " ".repeat(20);

    private PerftestHeader() {
    }

    /** The whole block, newline-terminated. */
    public static String render(TestInfo t) {
        StringBuilder sb = new StringBuilder(1024);
        sb.append(PerftestFormats.RESULT_LINE).append('\n');
        sb.append(title(t)).append('\n');
        if (t.events) {
            sb.append(" Test with events. Using ").append(t.deviceName).append("_comp").append(t.eventVector).append('\n');
        }
        sb.append(" Dual-port       : ").append(onOff(t.dualPort))
                .append("\t\tDevice         : ").append(t.deviceName).append('\n');
        sb.append(" Number of qps   : ").append(t.numQps)
                .append("\t\tTransport type : ").append(t.transport).append('\n');
        sb.append(" Connection type : ").append(t.connection.name())
                .append("\t\tUsing SRQ      : ").append(onOff(t.srq)).append('\n');
        sb.append(" PCIe relax order: ").append(t.pcieRelaxOrder).append('\n');
        sb.append(" ibv_wr* API     : ").append(onOff(t.wrApi));
        if (t.enhancedReorder) {
            // perftest's "Using Enhanced Reorder" (MLX5DV_QP_CREATE_OOO_DP in force); the perftest whose
            // header rocelab prints has no such column, so it shows only when the QPs place out of order
            sb.append("\t\tUsing Enhanced Reorder      : ON");
        }
        sb.append('\n');
        if (t.client || t.bidirectional) {
            sb.append(" TX depth        : ").append(t.txDepth).append('\n');
        }
        if (t.postList > 1) {
            sb.append(" Post List       : ").append(t.postList).append('\n');
        }
        if (t.recvPostList > 1) {
            sb.append(" Recv Post List  : ").append(t.recvPostList).append('\n');
        }
        if (t.verb == Verb.SEND && (!t.client || t.bidirectional)) {
            sb.append(" RX depth        : ").append(t.rxDepth).append('\n');
        }
        if (t.testType == TestType.BW) {
            sb.append(" CQ Moderation   : ").append(t.cqModeration).append('\n');
        }
        sb.append(" Mtu             : ").append(t.mtuBytes).append("[B]\n");
        sb.append(" Link type       : ").append(t.linkType).append('\n');
        if (t.gidIndex != -1) {
            sb.append(" GID index       : ").append(t.gidIndex).append('\n');
        }
        if (t.dualPort && t.gidIndex2 != -1) {
            sb.append(" GID index2      : ").append(t.gidIndex2).append('\n');
        }
        if (t.verb.usesOutstandingReads()) {
            sb.append(" Outstand reads  : ").append(t.outstandingReads).append('\n');
        } else {
            sb.append(" Max inline data : ").append(t.maxInline).append("[B]\n");
        }
        sb.append(" rdma_cm QPs\t : ").append(onOff(t.rdmaCmQps)).append('\n');
        sb.append(" Data ex. method : ").append(t.rdmaCmExchange ? "rdma_cm" : "Ethernet");
        if (t.rdmaCmQps) {
            if (t.tos != -1) {
                sb.append(" \tTOS    : ").append(t.tos);
            }
            if (!t.client) {
                sb.append('\n').append(PerftestFormats.RESULT_LINE).append('\n')
                        .append(" Waiting for client rdma_cm QP to connect\n")
                        .append(" Please run the same command with the IB/RoCE interface IP");
            }
        }
        sb.append('\n');
        sb.append(PerftestFormats.RESULT_LINE).append('\n');
        return sb.toString();
    }

    /** The title line, e.g. {@code "                    RDMA_Write BW Test"}. */
    public static String title(TestInfo t) {
        StringBuilder sb = new StringBuilder(INDENT).append(t.verb.title()).append(' ');
        if (t.verb == Verb.ATOMIC) {
            sb.append(t.atomicType.name()).append(' ');
        }
        if (t.testType == TestType.BW) {
            if (t.bidirectional) {
                sb.append("Bidirectional ");
            }
            if (t.postList > 1) {
                sb.append("Post List ");
            }
            sb.append("BW ");
        } else {
            sb.append("Latency ");
        }
        return sb.append("Test").toString();
    }

    /** The banner a server prints before it waits for the client. */
    public static String waitingForClient() {
        return PerftestFormats.WAITING_FOR_CLIENT;
    }

    private static String onOff(boolean b) {
        return b ? "ON" : "OFF";
    }
}
