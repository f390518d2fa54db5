package io.rocelab.lab.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP endpoint serving {@code /metrics} to Prometheus: the Prometheus Java client's own server
 * and exposition formats, so the text is the format Prometheus documents (text 0.0.4 by default,
 * OpenMetrics 1.0 when the scraper's {@code Accept} asks for {@code application/openmetrics-text},
 * as Prometheus does, or the protobuf format). Its own registry holds one {@link FabricCollector}:
 * nothing else (no JVM metrics) and nothing shared with other endpoints. Its threads are daemons:
 * an endpoint left open never keeps the process alive.
 */
public final class MetricsEndpoint implements AutoCloseable {
    /** Scrapes answered at once; a second Prometheus (or a curl) while one scrapes. */
    private static final int THREADS = 2;

    private final HTTPServer server;
    private final String host;

    private MetricsEndpoint(HTTPServer server, String host) {
        this.server = server;
        this.host = host;
    }

    /**
     * Starts serving {@code source} at {@code address}.
     *
     * @throws IllegalArgumentException in one line, if the address cannot be bound
     */
    public static MetricsEndpoint start(MetricsAddress address, TelemetrySource source) {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new FabricCollector(source));
        ExecutorService threads = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "metrics-http");
            t.setDaemon(true);
            return t;
        });
        try {
            HTTPServer server = HTTPServer.builder().hostname(address.host()).port(address.port()).registry(registry)
                .executorService(threads).buildAndStart();
            return new MetricsEndpoint(server, address.host());
        } catch (IOException e) {
            threads.shutdownNow();
            throw new IllegalArgumentException("--metrics " + address + ": cannot listen there: " + e.getMessage());
        } catch (UncheckedIOException e) {
            threads.shutdownNow();
            throw new IllegalArgumentException("--metrics " + address + ": cannot listen there: " + e.getMessage());
        }
    }

    /** @return the port it listens on (the one the system chose, for port 0) */
    public int port() {
        return server.getPort();
    }

    /** @return the URL a scraper fetches */
    public String url() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return "http://" + h + ":" + port() + "/metrics";
    }

    /** Stops listening; closing twice does nothing. */
    @Override
    public void close() {
        server.close();
    }
}
