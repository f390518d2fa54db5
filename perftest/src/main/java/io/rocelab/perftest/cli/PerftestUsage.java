package io.rocelab.perftest.cli;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.TestType;
import io.rocelab.perftest.Verb;
import io.rocelab.perftest.oob.OobServer;

/**
 * The {@code -h} text of a tool, laid out as perftest's {@code usage()} lays it out and limited to
 * the options rocelab implements, so that a perftest user finds each option where they expect it.
 */
public final class PerftestUsage {
    private PerftestUsage() {
    }

    /** The help screen of one tool. */
    public static String render(TestKind kind) {
        Verb verb = kind.verb();
        TestType tst = kind.type();
        String tool = kind.toolName();
        StringBuilder sb = new StringBuilder(4096);
        sb.append("Usage:\n");
        sb.append("  ").append(tool).append("            start a server and wait for connection\n");
        sb.append("  ").append(tool).append(" <host>     connect to server at <host>\n");
        sb.append('\n');
        sb.append("Options:\n");
        if (verb != Verb.ATOMIC) {
            sb.append("  -a, --all  Run sizes from 2 till 2^23\n");
        }
        if (verb == Verb.ATOMIC) {
            sb.append("  -A, --atomic_type=<type>  type of atomic operation from {CMP_AND_SWAP,FETCH_AND_ADD}"
                    + " (default FETCH_AND_ADD)\n");
        }
        if (tst == TestType.BW) {
            sb.append("  -b, --bidirectional  Measure bidirectional bandwidth (default unidirectional)\n");
        }
        if (verb == Verb.SEND) {
            sb.append("  -c, --connection=<RC/UC/UD>  Connection type RC/UC/UD (default RC)\n");
        } else if (verb == Verb.WRITE) {
            sb.append("  -c, --connection=<RC/UC>  Connection type RC/UC (default RC)\n");
        } else {
            sb.append("  -c, --connection=<RC>  Connection type RC (default RC)\n");
        }
        if (tst == TestType.LAT) {
            sb.append("  -C, --report-cycles  report times in cpu cycle units (default microseconds)\n");
        }
        sb.append("  -d, --ib-dev=<dev>  Use IB device <dev> (default first device found)\n");
        sb.append("  -D, --duration  Run test for a customized period of seconds.\n");
        if (verb != Verb.WRITE) {
            sb.append("  -e, --events  Sleep on CQ events (default poll)\n");
            sb.append("  -X, --vector=<completion vector>  Set <completion vector> used for events\n");
        }
        sb.append("  -f, --margin  measure results within margins. (default=2sec)\n");
        sb.append("  -F, --CPU-freq  Do not show a warning even if cpufreq_ondemand module is loaded,"
                + " and cpu-freq is not on max.\n");
        sb.append("  -h, --help  Show this help screen.\n");
        if (tst == TestType.LAT) {
            sb.append("  -H, --report-histogram  Print out all results (default print summary only)\n");
        }
        sb.append("  -i, --ib-port=<port>  Use port <port> of IB device (default 1)\n");
        if (!verb.usesOutstandingReads()) {
            sb.append("  -I, --inline_size=<size>  Max size of message to be sent in inline\n");
        }
        if (tst == TestType.BW) {
            sb.append("  -l, --post_list=<list size>\n");
            sb.append(" Post list of send WQEs of <list size> size (instead of single post)\n");
        }
        sb.append("  -m, --mtu=<mtu>  MTU size : 256 - 4096 (default port mtu)\n");
        sb.append("  -n, --iters=<iters>  Number of exchanges (at least ").append(TestShape.MIN_ITERATIONS)
                .append(", default ").append(kind.defaultIterations()).append(")\n");
        if (tst == TestType.BW) {
            sb.append("  -N, --noPeak Cancel peak-bw calculation (default with peak up to iters=20000)\n");
        }
        if (verb.usesOutstandingReads()) {
            sb.append("  -o, --outs=<num>  num of outstanding read/atom(default max of device)\n");
        }
        if (tst == TestType.BW) {
            sb.append("  -O, --dualport  Run test in dual-port mode. (SYMMETRIC)\n");
        }
        sb.append("  -p, --port=<port>  Listen on/connect to port <port> (default ").append(OobServer.DEFAULT_PORT)
                .append(")\n");
        if (tst == TestType.BW) {
            sb.append("  -q, --qp=<num of qp's>  Num of qp's(default 1)\n");
            sb.append("  -Q, --cq-mod  Generate Cqe only after <--cq-mod> completion\n");
        }
        if (verb == Verb.SEND) {
            sb.append("  -r, --rx-depth=<dep>  Rx queue size (default ").append(TestKind.DEFAULT_RX_DEPTH_SEND)
                    .append("). If using srq, rx-depth controls max-wr size of the srq\n");
        }
        sb.append("  -R, --rdma_cm  Connect QPs with rdma_cm and run test on those QPs\n");
        if (verb != Verb.ATOMIC) {
            sb.append("  -s, --size=<size>  Size of message to exchange (default ").append(kind.defaultSize())
                    .append(")\n");
        }
        sb.append("  -S, --sl=<sl>  SL (default 0)\n");
        if (tst == TestType.BW) {
            sb.append("  -t, --tx-depth=<dep>  Size of tx queue (default ").append(kind.defaultTxDepth()).append(")\n");
        }
        sb.append("  -T, --tos=<tos value>  Set <tos_value> to RDMA-CM QPs. available only with -R flag."
                + " values 0-256 (default off)\n");
        sb.append("  -u, --qp-timeout=<timeout>  QP timeout, timeout value is 4 usec * 2 ^(timeout), default 14\n");
        if (tst == TestType.LAT) {
            sb.append("  -U, --report-unsorted  (implies -H) print out unsorted results (default sorted)\n");
        }
        sb.append("  -V, --version  Display version number\n");
        if (tst == TestType.BW) {
            sb.append("  -w, --limit_bw=<value>  Set verifier limit for bandwidth\n");
        }
        sb.append("  -W, --report-counters=<list of counter names>  Report performance counter change"
                + " (example: \"counters/port_xmit_data,hw_counters/out_of_buffer\")\n");
        sb.append("  -x, --gid-index=<index>  Test uses GID with GID index (Default : IB - no gid . ETH - 0)\n");
        if (tst == TestType.BW) {
            sb.append("  -y, --limit_msgrate=<value>  Set verifier limit for Msg Rate\n");
        }
        sb.append('\n');
        sb.append("      --dont_xchg_versions  Do not exchange versions and MTU with other side \n");
        if (verb == Verb.SEND) {
            sb.append("      --use-srq  Use a Shared Receive Queue. --rx-depth controls max-wr size of the SRQ \n");
        }
        sb.append("      --ipv6  Use IPv6 GID. Default is IPv4\n");
        sb.append("      --source_ip  Source IP of the interface used for connection establishment."
                + " By default taken from routing table.\n");
        if (tst == TestType.BW) {
            sb.append("      --mr_per_qp  Create memory region for each qp.\n");
        }
        sb.append("      --use_old_post_send Use old post send flow (ibv_post_send).\n");
        sb.append("      --perform_warm_up Perform some iterations before start measuring in order to warming-up"
                + " memory cache, valid in Atomic, Read and Write BW tests\n");
        if (tst == TestType.BW) {
            sb.append("      --report_gbits  Report Max/Average BW of test in Gbit/sec (instead of MB/sec)\n");
            sb.append("      --run_infinitely  Run test forever, print results every <duration> seconds\n");
            rateLimiter(sb);
        }
        sb.append("      --use_ooo  Use out of order data placement\n");
        sb.append('\n');
        return sb.toString();
    }

    /** perftest's "Rate Limiter" block of the bandwidth tools, with what each limiter is on rocelab's NIC. */
    private static void rateLimiter(StringBuilder sb) {
        sb.append("\n Rate Limiter:\n");
        sb.append("      --burst_size=<size> Set the amount of messages to send in a burst when using rate limiter\n");
        sb.append("      --rate_limit=<rate> Set the maximum rate of sent packages. default unit is [Gbps]."
                + " use --rate_units to change that.\n");
        sb.append("      --rate_units=<units> [Mgp] Set the units for rate limit to MiBps (M), Gbps (g) or pps (p)."
                + " default is Gbps (g).\n");
        sb.append("        Note (1): pps not supported with HW limit.\n");
        sb.append("        Note (2): PP takes M only, as 8 x 1024 Kbps each.\n");
        sb.append("      --rate_limit_type=<type> [HW/SW/PP] Limit the QP's by HW, PP or by SW. Disabled by default."
                + " When rate_limit is not specified HW limit is Default.\n");
        sb.append("        On rocelab's NIC: HW is the NIC's per-QP pacer, at any rate (perftest on InfiniBand"
                + " takes only the IB static rates 2.5, 5, 10, ... Gb/s); PP (packet pacing) is the same pacer,"
                + " on any QP type, not only Raw Ethernet; with --burst_size, that many messages may go back to"
                + " back, and what the rate carries in 10 ms may go early so that a NIC thread kept waiting for a"
                + " core catches up. SW posts --burst_size messages (default the tx depth) per burst from the send"
                + " loop.\n");
    }
}
