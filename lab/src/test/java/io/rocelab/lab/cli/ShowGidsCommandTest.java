package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code rocelab show_gids} as a user runs it: the soft NIC's GID table with each entry's type, rxe's
 * (RoCEv2 only) by default and a ConnectX's (v1 then v2 per address) with {@code --roce-v1}; bad
 * addresses are one line and exit 2.
 */
class ShowGidsCommandTest {
    private static List<String> entries(CliRun run) {
        return run.out().lines().filter(l -> l.startsWith("rocelab0\t")).toList();
    }

    @Test
    void byDefaultTheTableIsRxesEveryGidRoceV2() {
        CliRun run = CliRun.of("show_gids", "--ip", "10.77.0.2", "--ip6", "fd77::2");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of(
            "rocelab0\t1\t0\tfe80:0000:0000:0000:5054:00ff:fe77:0101\t  \t\tv2\teth0",
            "rocelab0\t1\t1\t0000:0000:0000:0000:0000:ffff:0a4d:0002\t10.77.0.2  \t\tv2\teth0",
            "rocelab0\t1\t2\tfd77:0000:0000:0000:0000:0000:0000:0002\t  \t\tv2\teth0"), entries(run));
        assertTrue(run.out().startsWith("DEV\tPORT\tINDEX\tGID\t"), run.out());
        assertTrue(run.out().endsWith("n_gids_found=3\n"), run.out());
    }

    @Test
    void withRoceV1EachAddressIsListedV1ThenV2AsOnAConnectX() {
        CliRun run = CliRun.of("show_gids", "--roce-v1");
        assertEquals(0, run.exitCode(), run.err());
        List<String> e = entries(run);
        assertEquals(4, e.size(), run.out());
        String[] types = {"v1", "v2", "v1", "v2"};
        for (int i = 0; i < 4; i++) {
            String[] f = e.get(i).split("\t", -1);
            assertEquals(String.valueOf(i), f[2]);
            assertEquals(types[i], f[6], e.get(i));
        }
        assertTrue(e.get(2).contains("0000:0000:0000:0000:0000:ffff:0a4d:0001\t10.77.0.1"), e.get(2));
        assertEquals(e.get(2).split("\t")[3], e.get(3).split("\t")[3], "one address, two types");
        assertTrue(run.out().endsWith("n_gids_found=4\n"), run.out());
    }

    @Test
    void aBadAddressIsOneLine() {
        CliRun run = CliRun.of("show_gids", "--ip", "10.77.0.300");
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().contains("--ip"), run.err());
    }
}
