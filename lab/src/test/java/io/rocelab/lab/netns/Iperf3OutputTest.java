package io.rocelab.lab.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** iperf3 3.12's output as it prints it: a server's interval lines, a client's {@code -J} result. */
class Iperf3OutputTest {
    @Test
    void oneStreamCountsItsLinesAndSkipsHeaders() {
        assertEquals(Math.round(11.2 * 1024 * 1024),
            Iperf3Output.intervalBytes("[  5]   0.00-0.10   sec  11.2 MBytes   941 Mbits/sec                  ", false));
        assertEquals(640 * 1024, Iperf3Output.intervalBytes("[  5]   0.40-0.56   sec   640 KBytes  33.7 Mbits/sec", false));
        assertEquals(-1, Iperf3Output.intervalBytes("[ ID] Interval           Transfer     Bitrate", false));
        assertEquals(-1, Iperf3Output.intervalBytes("Server listening on 5201 (test #1)", false));
    }

    @Test
    void severalStreamsCountOnlyTheSum() {
        assertEquals(-1, Iperf3Output.intervalBytes("[  8]   0.00-0.10   sec  1.25 MBytes   104 Mbits/sec", true));
        assertEquals(Math.round(2.5 * 1024 * 1024),
            Iperf3Output.intervalBytes("[SUM]   0.00-0.10   sec  2.50 MBytes   208 Mbits/sec", true));
        assertEquals(-1, Iperf3Output.intervalBytes("[SUM]   0.00-0.10   sec  2.50 MBytes   208 Mbits/sec", false));
    }

    @Test
    void theClientsJsonGivesWhatTheServerReceived() {
        String json = """
            {"end": {"sum_sent": {"start": 0, "end": 1.0, "seconds": 1.0, "bytes": 26000000,
              "bits_per_second": 208000000.0, "retransmits": 0, "sender": true},
              "sum_received":	{
                "start":	0,
                "end":	1.00106,
                "seconds":	1.00106,
                "bytes":	25165824,
                "bits_per_second":	201113411.78350946,
                "sender":	true
              }}}
            """;
        Iperf3Output.Received r = Iperf3Output.received(json);
        assertEquals(25_165_824, r.bytes());
        assertEquals(1.00106, r.seconds(), 1e-9);
        assertEquals(201113411.78350946, r.bitsPerSecond(), 1e-3);
        assertNull(Iperf3Output.error(json));
    }

    @Test
    void aFailedClientSaysWhy() {
        String json = "{\"start\": {}, \"intervals\": [], \"end\": {}, \"error\": \"unable to connect to server: "
            + "Connection refused\"}";
        assertNull(Iperf3Output.received(json));
        assertEquals("unable to connect to server: Connection refused", Iperf3Output.error(json));
    }
}
