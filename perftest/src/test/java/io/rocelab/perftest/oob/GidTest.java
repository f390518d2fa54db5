package io.rocelab.perftest.oob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class GidTest {

    /** Each pair: the 16 bytes, and what glibc's inet_ntop(AF_INET6) prints for them. */
    @ParameterizedTest
    @CsvSource({
        "00000000000000000000ffff0a4d000b, ::ffff:10.77.0.11",
        "fd770000000000000000000000000011, fd77::11",
        "00000000000000000000000000000000, ::",
        "00000000000000000000000000000001, ::1",
        "0000000000000000000000000a000001, ::10.0.0.1",
        "00010000000000010000000000000001, 1:0:0:1::1",
        "fe80000000000000505400fffe77000b, fe80::5054:ff:fe77:b",
        "00010002000300040005000600070008, 1:2:3:4:5:6:7:8",
        "00010000000000000000000000000000, 1::",
        "00000000000100000000000000000000, 0:0:1::",
        "00000000000000000000ffff00000000, ::ffff:0.0.0.0",
    })
    void textIsWhatInetNtopPrints(String hex, String text) {
        assertEquals(text, Gid.of(HexFormat.of().parseHex(hex)).toIpv6Text());
    }

    @Test
    void ipv4AddressesAreMapped() throws Exception {
        Gid g = Gid.of(InetAddress.getByName("10.77.0.10"));
        assertTrue(g.isIpv4Mapped());
        assertEquals("00000000000000000000ffff0a4d000a", HexFormat.of().formatHex(g.bytes()));
        assertEquals(InetAddress.getByName("10.77.0.10"), g.toInetAddress());
        Gid v6 = Gid.of(InetAddress.getByName("fd77::10"));
        assertFalse(v6.isIpv4Mapped());
        assertEquals(InetAddress.getByName("fd77::10"), v6.toInetAddress());
    }
}
