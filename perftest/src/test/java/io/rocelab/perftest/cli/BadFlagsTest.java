package io.rocelab.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.perftest.TestKind;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every refused command line gives exactly one line on stderr, nothing on stdout and exit status
 * 1, before any device is touched. Where perftest has a message for the mistake, it is perftest's.
 */
class BadFlagsTest {

    static Stream<Arguments> refused() {
        return Stream.of(
                bad(TestKind.WRITE_BW, " Message Size should be between 1 and 8388608", "-s", "0"),
                bad(TestKind.WRITE_BW, " Message Size should be between 1 and 8388608", "-s", "9000000"),
                bad(TestKind.WRITE_BW, " Message Size should be between 1 and 8388608", "--size=16M"),
                bad(TestKind.WRITE_BW, " Message Size argument 4q should be an integer, optionally followed by K or M",
                        "-s", "4q"),
                bad(TestKind.WRITE_BW, " Iteration num should be between 5 and 2147483647", "-n", "4"),
                bad(TestKind.WRITE_LAT, " Iteration num should be between 5 and 2147483647", "--iters=3"),
                bad(TestKind.READ_BW, " Iteration num argument abc should be an integer", "-n", "abc"),
                bad(TestKind.WRITE_BW, " -a runs every size from 2 to 8388608 bytes; it cannot be combined with -s",
                        "-a", "-s", "4096"),
                bad(TestKind.WRITE_BW, " -D runs for a time, not a number of iterations; it cannot be combined with -n",
                        "-D", "5", "-n", "100"),
                bad(TestKind.SEND_BW, " Max message size in UD cannot be greater than MTU (1024)",
                        "-c", "UD", "-s", "4096"),
                bad(TestKind.SEND_LAT, " Max message size in UD cannot be greater than MTU (512)",
                        "-c", "UD", "-m", "512", "-s", "1024"),
                bad(TestKind.READ_BW, " UC connection not possible in READ/ATOMIC verbs", "-c", "UC"),
                bad(TestKind.ATOMIC_LAT, " UC connection not possible in READ/ATOMIC verbs", "-c", "UC"),
                bad(TestKind.READ_LAT, " UD connection only possible in SEND verb", "-c", "UD"),
                bad(TestKind.WRITE_BW, " UD connection only possible in SEND verb", "-c", "UD"),
                bad(TestKind.WRITE_BW, " XRC connection is not supported by rocelab's NIC. Please choose from {RC,UC,UD}",
                        "-c", "XRC"),
                bad(TestKind.WRITE_BW, " Invalid Connection type. Please choose from {RC,UC,UD}", "-c", "rc"),
                bad(TestKind.ATOMIC_BW, "Message size cannot be changed for Atomic tests", "-s", "16"),
                bad(TestKind.ATOMIC_LAT, "Message size cannot be changed for Atomic tests", "-a"),
                bad(TestKind.WRITE_LAT, " run_infinitely exists only in BW tests for now.", "--run_infinitely"),
                bad(TestKind.SEND_BW, " run_infinitely mode is not supported in SEND Bidirectional BW test",
                        "-b", "--run_infinitely"),
                bad(TestKind.WRITE_BW, " --run_infinitely runs one size; it cannot be combined with -a",
                        "--run_infinitely", "-a"),
                bad(TestKind.WRITE_BW, " You are not running the atomic_lat/bw test! To change the atomic action type,"
                        + " you must run one of the atomic tests", "-A", "CMP_AND_SWAP"),
                bad(TestKind.ATOMIC_BW, " Invalid Atomic type! please choose from {CMP_AND_SWAP,FETCH_AND_ADD}",
                        "-A", "SWAP"),
                bad(TestKind.WRITE_BW, " GPU memory (--use_cuda/--use_rocm) is not supported:"
                        + " rocelab's NIC reaches host memory only", "--use_cuda=0"),
                bad(TestKind.READ_BW, " GPU memory (--use_cuda/--use_rocm) is not supported:"
                        + " rocelab's NIC reaches host memory only", "--use_cuda"),
                bad(TestKind.WRITE_LAT, " Bidirectional is only available in BW test", "-b"),
                bad(TestKind.WRITE_LAT, " Multiple QPs only available on bw tests", "-q", "2"),
                bad(TestKind.WRITE_LAT, " NoPeak only valid for BW tests", "-N"),
                bad(TestKind.WRITE_BW, " Available only on Latency tests", "-C"),
                bad(TestKind.WRITE_BW, " Invalid MTU - 1500 . Please choose mtu from {256,512,1024,2048,4096}",
                        "-m", "1500"),
                bad(TestKind.WRITE_BW, " Events feature not available on WRITE verb", "-e"),
                bad(TestKind.READ_BW, " Inline feature not available on READ/Atomic verbs", "-I", "64"),
                bad(TestKind.WRITE_BW, " Setting Outstanding reads only available on READ verb", "-o", "4"),
                bad(TestKind.SEND_BW, " TOS only valid for rdma_cm based QP and RawEth QP ", "-T", "5"),
                bad(TestKind.WRITE_BW, " UC is not supported in librdmacm", "-R", "-c", "UC"),
                // perftest's force_dependecies for -O: BW tests only, and not with rdma_cm
                bad(TestKind.WRITE_LAT, " Dual-port mode only supports BW tests.", "-O"),
                bad(TestKind.WRITE_BW, " Perftest still doesn't support Dual Port with rdma_cm", "-O", "-R"),
                bad(TestKind.WRITE_LAT, "Post list is supported in BW tests only", "-l", "4"),
                bad(TestKind.WRITE_BW, "Number of iterations must be a multiple of post list size",
                        "-l", "3", "-n", "100"),
                bad(TestKind.WRITE_BW, "Post list size must be a multiple of CQ moderation",
                        "-l", "4", "-Q", "3", "-n", "100"),
                bad(TestKind.WRITE_BW, " Tx depth should be between 1 and 15000", "-t", "0"),
                bad(TestKind.WRITE_BW, " Gid index should be between 0 and 64", "-x", "65"),
                bad(TestKind.WRITE_BW, " Only 15 Service levels", "-S", "16"),
                bad(TestKind.WRITE_BW, " Port should be between 1 and 65535", "-p", "70000"),
                bad(TestKind.WRITE_BW, " On RDMA verbs rx depth can be only 1", "-r", "2"),
                bad(TestKind.SEND_BW, " Rx depth should be between 1 and 16384", "-r", "20000"),
                bad(TestKind.WRITE_BW, " CQ moderation should be between 1 and 1024", "-Q", "0"),
                bad(TestKind.WRITE_BW, " QP Timeout should be between 0 and 31", "-u", "32"),
                bad(TestKind.WRITE_BW, "IB Port can't be less than 1", "-i", "0"),
                bad(TestKind.WRITE_BW, " Invalid Minimum BW Limit", "-w", "-1"),
                bad(TestKind.WRITE_BW, " Using SRQ only available in SEND tests.", "--use-srq"),
                bad(TestKind.SEND_BW, "Duration mode doesn't work with events.", "-e", "-D", "5"),
                bad(TestKind.WRITE_BW, "Duration mode currently doesn't support running on all sizes.",
                        "-D", "5", "-a"),
                bad(TestKind.WRITE_BW, "please check that DURATION > 2*MARGIN", "-D", "2", "-f", "1"),
                bad(TestKind.WRITE_BW, " Duration period must be positive", "-D", "0"),
                bad(TestKind.SEND_LAT, " Events must be enabled to select a completion vector", "-X", "1"),
                bad(TestKind.WRITE_BW, " Rate limit must be non-negative floating point number", "--rate_limit=0"),
                bad(TestKind.WRITE_BW, " Rate limit must be non-negative floating point number", "--rate_limit=-2"),
                bad(TestKind.WRITE_BW, " Rate limit must be non-negative floating point number", "--rate_limit=fast"),
                bad(TestKind.WRITE_BW, " Invalid rate limit units. Please use M,g or p", "--rate_limit=1",
                        "--rate_units=G"),
                bad(TestKind.WRITE_BW, " Invalid rate limit type flag. Please use HW, SW or PP.", "--rate_limit=1",
                        "--rate_limit_type=hw"),
                bad(TestKind.WRITE_BW, " Burst size argument many should be an integer", "--rate_limit=1",
                        "--burst_size=many"),
                bad(TestKind.WRITE_BW, " Burst size must be non-negative int", "--rate_limit=1", "--burst_size=-1"),
                bad(TestKind.WRITE_BW, " Can't enable burst mode when rate limiter is off", "--burst_size=8"),
                bad(TestKind.WRITE_BW, " Failed: pps rate limit units is not supported when setting HW rate limit",
                        "--rate_limit=1000", "--rate_units=p"),
                bad(TestKind.WRITE_BW, "Packet Pacing only supports MEGA_BYTE_PS.", "--rate_limit=1",
                        "--rate_limit_type=PP"),
                bad(TestKind.WRITE_BW, "Packet Pacing only supports MEGA_BYTE_PS.", "--rate_limit=1000",
                        "--rate_limit_type=PP", "--rate_units=p"),
                bad(TestKind.WRITE_BW, " Must specify a rate limit when using the SW rate limiter. Please add"
                        + " --rate_limit=<limit>.", "--rate_limit_type=SW"),
                bad(TestKind.WRITE_BW, " Must specify a rate limit when using Packet Pacing. Please add"
                        + " --rate_limit=<limit>.", "--rate_limit_type=PP", "--rate_units=M"),
                bad(TestKind.WRITE_LAT, "SW Rate limiter cann't be executed on non-BW, ATOMIC or bidirectional SEND"
                        + " tests", "--rate_limit=1", "--rate_limit_type=SW"),
                bad(TestKind.ATOMIC_BW, "SW Rate limiter cann't be executed on non-BW, ATOMIC or bidirectional SEND"
                        + " tests", "--rate_limit=1", "--rate_limit_type=SW"),
                bad(TestKind.SEND_BW, "SW Rate limiter cann't be executed on non-BW, ATOMIC or bidirectional SEND"
                        + " tests", "--rate_limit=1", "--rate_limit_type=SW", "-b"),
                bad(TestKind.WRITE_BW, " HW rate limit isn't supported yet with rdma_cm scenarios", "--rate_limit=1",
                        "-R"),
                bad(TestKind.WRITE_BW, " run_infinitely does not support rate limit feature yet", "--rate_limit=1",
                        "--run_infinitely"),
                bad(TestKind.WRITE_BW, " Invalid Command or flag: --frobnicate. Please check command line and run again.",
                        "--frobnicate"),
                bad(TestKind.WRITE_BW, " Invalid Command line. Please check command rerun ", "host1", "host2"),
                bad(TestKind.WRITE_BW, " Invalid Command or flag: Missing required parameter for option '--size'"
                        + " (<size>)", "-s"));
    }

    private static Arguments bad(TestKind kind, String line, String... args) {
        return Arguments.of(kind, String.join(" ", args), args, line);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("refused")
    void oneLineAndExitStatusOne(TestKind kind, String shown, String[] args, String line) {
        ToolRun r = ToolRun.of(kind, args);
        assertEquals(line + System.lineSeparator(), r.err());
        assertEquals("", r.out());
        assertEquals(1, r.exitStatus());
    }
}
