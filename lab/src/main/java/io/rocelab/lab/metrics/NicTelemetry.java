package io.rocelab.lab.metrics;

import io.rocelab.nic.SoftNic;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One NIC port's counters as a scrape sees them: every {@link NicCounter}, rxe's hw counter names and
 * mlx5's ethtool and congestion names alike, as {@code rdma statistic show link DEV/PORT} would list
 * them. A NIC's counters are published for readers on other threads (release stores, acquire loads),
 * so they may be read from any thread; the whole set is copied at once.
 *
 * @param host     the host the NIC is in (the lab's host name, or the process's)
 * @param device   the RDMA device's name ({@code ibv_get_device_name})
 * @param port     the RDMA port, 1 or 2
 * @param counters every counter, in {@link NicCounter} order
 * @param paused   per priority, whether a PFC frame from the switch holds the NIC's sending now
 */
public record NicTelemetry(String host, String device, int port, Map<NicCounter, Long> counters, boolean[] paused) {

    /** @return one entry per port of {@code nic} */
    public static List<NicTelemetry> take(String host, SoftNic nic) {
        List<NicTelemetry> all = new ArrayList<>();
        boolean[] paused = new boolean[8];
        for (int p = 0; p < 8; p++) {
            paused[p] = nic.isPaused(p);
        }
        for (int port = 1; port <= nic.portCount(); port++) {
            all.add(new NicTelemetry(host, nic.name(), port, nic.port(port).counters().snapshot(), paused.clone()));
        }
        return all;
    }
}
