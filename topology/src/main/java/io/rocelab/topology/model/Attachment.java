package io.rocelab.topology.model;

import java.util.Objects;

/**
 * One end of a link: a node and one of its ports, written {@code node:port} ({@code leaf0:Ethernet8},
 * {@code h3:eth0}). A host's first port is {@link Host#PORT}, so {@code h3} alone means {@code h3:eth0}; a
 * dual-port host's second is {@code h3:eth1}.
 *
 * @param node the node's name
 * @param port the port's name on that node
 */
public record Attachment(String node, String port) {
    public Attachment {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(port, "port");
    }

    /**
     * @param text {@code node:port}, or {@code node} for a host's only port
     * @return the attachment
     */
    public static Attachment parse(String text) {
        int colon = text.lastIndexOf(':');
        return colon < 0 ? new Attachment(text, Host.PORT) : new Attachment(text.substring(0, colon),
            text.substring(colon + 1));
    }

    /** @return a host's first (or only) port */
    public static Attachment host(String host) {
        return new Attachment(host, Host.PORT);
    }

    @Override
    public String toString() {
        return node + ":" + port;
    }
}
