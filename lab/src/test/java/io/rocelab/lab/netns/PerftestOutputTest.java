package io.rocelab.lab.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PerftestOutputTest {
    @Test
    void theLastBandwidthRowGivesTheBytesAndTheAverage() {
        String out = """
            ---------------------------------------------------------------------------------------
             #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
             65536      100              0.00               1.87   		   0.000030
            ---------------------------------------------------------------------------------------
            """;
        PerftestOutput.BandwidthRow row = PerftestOutput.lastBandwidthRow(out);
        assertEquals(65536L * 100, row.bytes());
        assertEquals(1.87, row.mbPerSecond(), 1e-9);
    }

    @Test
    void noRowIsNone() {
        assertEquals(PerftestOutput.BandwidthRow.NONE,
            PerftestOutput.lastBandwidthRow(" Couldn't connect to 10.0.1.1:18515\n 2 200 3.1\n"));
    }
}
