package io.rocelab.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** perftest's {@code -W} report ({@code perftest_counters.c}): the change of each counter since the last read. */
class CounterReportTest {
    private final Map<String, Long> device = new HashMap<>(Map.of("hw_counters/sent_pkts", 100L,
        "hw_counters/rcvd_pkts", 7L));

    private OptionalLong read(String name) {
        Long v = device.get(name);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    @Test
    void eachReportIsATabbedLinePerCounterInTheGivenOrderThenAnEmptyLine() {
        CounterReport r = CounterReport.open(List.of("hw_counters/rcvd_pkts", "hw_counters/sent_pkts"), this::read);
        device.put("hw_counters/sent_pkts", 400L);
        device.put("hw_counters/rcvd_pkts", 10L);
        assertEquals("\thw_counters/rcvd_pkts=3\n\thw_counters/sent_pkts=300\n\n", r.render());
    }

    @Test
    void theChangeIsSinceThePreviousReportAsWithOneReportPerSize() {
        CounterReport r = CounterReport.open(List.of("hw_counters/sent_pkts"), this::read);
        device.put("hw_counters/sent_pkts", 150L);
        assertEquals("\thw_counters/sent_pkts=50\n\n", r.render());
        assertEquals("\thw_counters/sent_pkts=0\n\n", r.render());
        device.put("hw_counters/sent_pkts", 151L);
        assertEquals("\thw_counters/sent_pkts=1\n\n", r.render());
    }

    @Test
    void aCounterTheDeviceDoesNotHaveMeansNoReport() {
        assertNull(CounterReport.open(List.of("hw_counters/sent_pkts", "counters/port_xmit_data"), this::read));
    }
}
