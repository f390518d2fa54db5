package io.rocelab.lab.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@code --metrics HOST:PORT}: the forms a user types, and one line for a mistake. */
class MetricsAddressTest {
    @Test
    void hostAndPortIpv6InBracketsAndEveryAddress() {
        assertEquals(new MetricsAddress("127.0.0.1", 9464), MetricsAddress.parse("127.0.0.1:9464"));
        assertEquals(new MetricsAddress("::1", 0), MetricsAddress.parse("[::1]:0"));
        assertEquals(new MetricsAddress("0.0.0.0", 9464), MetricsAddress.parse(":9464"));
        assertEquals(new MetricsAddress("localhost", 80), MetricsAddress.parse("localhost:80"));
        assertEquals("[::1]:0", MetricsAddress.parse("[::1]:0").toString());
    }

    @Test
    void aMistakeIsOneLineNamingTheFlag() {
        assertEquals("--metrics 9464: expected HOST:PORT (127.0.0.1:9464, 0.0.0.0:9464, [::1]:9464) or :PORT",
            assertThrows(IllegalArgumentException.class, () -> MetricsAddress.parse("9464")).getMessage());
        assertEquals("--metrics ::1:80: expected HOST:PORT (127.0.0.1:9464, 0.0.0.0:9464, [::1]:9464) or :PORT"
                + " (an IPv6 address goes in brackets)",
            assertThrows(IllegalArgumentException.class, () -> MetricsAddress.parse("::1:80")).getMessage());
        assertEquals("--metrics h:x: expected HOST:PORT (127.0.0.1:9464, 0.0.0.0:9464, [::1]:9464) or :PORT",
            assertThrows(IllegalArgumentException.class, () -> MetricsAddress.parse("h:x")).getMessage());
        assertEquals("--metrics h:70000: the port must be 0..65535",
            assertThrows(IllegalArgumentException.class, () -> MetricsAddress.parse("h:70000")).getMessage());
    }

    @Test
    void aPortInUseIsOneLine() {
        try (MetricsEndpoint first = MetricsEndpoint.start(MetricsAddress.parse("127.0.0.1:0"), () -> Telemetry.EMPTY)) {
            String taken = "127.0.0.1:" + first.port();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MetricsEndpoint.start(MetricsAddress.parse(taken), () -> Telemetry.EMPTY));
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            assertEquals(true, e.getMessage().startsWith("--metrics " + taken + ": cannot listen there: "), e.getMessage());
        }
    }
}
