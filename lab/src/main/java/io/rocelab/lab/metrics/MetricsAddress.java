package io.rocelab.lab.metrics;

/**
 * Where a {@code /metrics} endpoint listens: {@code HOST:PORT} ({@code 127.0.0.1:9464},
 * {@code 0.0.0.0:9464}, {@code [::1]:9464}), or {@code :PORT} for every address. Port 0 lets the
 * system choose one (printed when the endpoint starts).
 *
 * @param host the address to bind, a name or a literal
 * @param port 0..65535
 */
public record MetricsAddress(String host, int port) {
    /**
     * @throws IllegalArgumentException in one line naming what is wrong
     */
    public static MetricsAddress parse(String text) {
        String what = "--metrics " + text + ": expected HOST:PORT (127.0.0.1:9464, 0.0.0.0:9464, [::1]:9464) or :PORT";
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(what);
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new IllegalArgumentException(what + " (an IPv6 address goes in brackets)");
        }
        if (host.isEmpty()) {
            host = "0.0.0.0";
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--metrics " + text + ": the port must be 0..65535");
        }
        return new MetricsAddress(host, port);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
