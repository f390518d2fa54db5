package io.rocelab.perftest.cli;

import io.rocelab.perftest.oob.OobServer;

/**
 * How the two sides of a perftest run find each other and agree on their QPs (the settings of
 * {@link PeerFlags}): the out-of-band TCP exchange or rdma_cm, and the local GID the QPs use.
 *
 * @param host             the server to connect to (perftest's positional argument); null on the
 *                         server side
 * @param port             {@code -p}: TCP port of the out-of-band exchange; perftest's default is 18515
 * @param rdmaCm           {@code -R}: connect the QPs with rdma_cm instead of the TCP exchange
 * @param gidIndex         {@code -x}: index of the local GID in the port's GID table; -1 means the
 *                         default (0 on Ethernet)
 * @param ipv6             {@code --ipv6}: prefer an IPv6 GID
 * @param sourceIp         {@code --source_ip}: local address of the out-of-band connection; null when
 *                         not given
 * @param exchangeVersions false with {@code --dont_xchg_versions}: the sides skip comparing perftest
 *                         versions
 */
public record Peer(String host, int port, boolean rdmaCm, int gidIndex, boolean ipv6, String sourceIp,
                   boolean exchangeVersions) {

    /** perftest's {@code MAX_GID_IX}: the largest {@code -x}. */
    static final int MAX_GID_INDEX = 64;

    /** True on the side that waits for a connection (no host given). */
    public boolean isServer() {
        return host == null;
    }

    /** True on the side that connects and, in one-way tests, sends. */
    public boolean isClient() {
        return host != null;
    }

    /** The settings while perftest's rules fill them in; starts at perftest's defaults. */
    static final class Builder {
        String host = null;
        int port = OobServer.DEFAULT_PORT;
        boolean rdmaCm = false;
        int gidIndex = -1;
        boolean ipv6 = false;
        String sourceIp = null;
        boolean exchangeVersions = true;

        Builder() {
        }

        Builder(Peer p) {
            host = p.host;
            port = p.port;
            rdmaCm = p.rdmaCm;
            gidIndex = p.gidIndex;
            ipv6 = p.ipv6;
            sourceIp = p.sourceIp;
            exchangeVersions = p.exchangeVersions;
        }

        Peer build() {
            return new Peer(host, port, rdmaCm, gidIndex, ipv6, sourceIp, exchangeVersions);
        }
    }
}
