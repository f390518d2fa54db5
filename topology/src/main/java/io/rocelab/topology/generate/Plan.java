package io.rocelab.topology.generate;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;

/**
 * What the generators share: SONiC port names ({@code Ethernet0}, {@code Ethernet4}, ...: four lanes a
 * port), MACs made from addresses (a host's 02:00 and its IPv4 address, a switch's 02:01 and its
 * number, both locally administered), and a switch's tables with its ports and its own ECMP hash
 * seed (the same seed at every tier would send a flow's hash down the same member at each: ECMP
 * polarization).
 */
final class Plan {
    static final int SWITCH_MTU = 9100;
    private static final long HOST_MAC_BASE = 0x02_00_00_00_00_00L;
    private static final long ROUTER_MAC_BASE = 0x02_01_00_00_00_00L;

    private Plan() {
    }

    /** @return SONiC's name of the {@code i}th port */
    static String port(int i) {
        return "Ethernet" + 4 * i;
    }

    /** @return switch number {@code index}'s tables: hostname, router MAC, ECMP seed, ports at the speeds given */
    static SwitchConfigBuilder switchTables(String name, int index, long... portSpeedsMbps) {
        SwitchConfigBuilder t = new SwitchConfigBuilder().hostname(name).mac(ROUTER_MAC_BASE | (index + 1))
            .ecmpHashSeed(index + 1L);
        for (int i = 0; i < portSpeedsMbps.length; i++) {
            t.port(port(i), portSpeedsMbps[i], SWITCH_MTU);
        }
        return t;
    }

    /**
     * @return a host at {@code ipv4} (and {@code ipv6} unless null), its MAC from the IPv4 address,
     *         DCQCN on its NIC with {@code dcqcn} unless null, acting on a received pause after
     *         {@code pauseResponse}
     */
    static Host host(String name, int ipv4, String ipv6, int activeMtu, DcqcnParams dcqcn,
                     PauseResponse pauseResponse) {
        Host.Builder b = Host.builder(name).ipv4(ipv4).mac(HOST_MAC_BASE | (ipv4 & 0xFFFF_FFFFL)).activeMtu(activeMtu)
            .dcqcn(dcqcn).pauseResponse(pauseResponse);
        if (ipv6 != null) {
            b.ipv6(ipv6);
        }
        return b.build();
    }

    /** @return 10.a.b.c */
    static int ipv4(int a, int b, int c) {
        return 10 << 24 | a << 16 | b << 8 | c;
    }

    /** @return a cable of {@code meters} between the two ends */
    static Link cable(String a, String b, int meters) {
        return Link.between(a, b).cableMeters(meters).build();
    }
}
