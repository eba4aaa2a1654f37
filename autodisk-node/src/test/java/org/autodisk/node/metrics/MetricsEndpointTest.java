package org.autodisk.node.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.node.MiniCluster;
import org.junit.jupiter.api.Test;

/** A node with {@code metrics.http-port} set answers Prometheus's scrape with its meters. */
class MetricsEndpointTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aScrapeShowsTheNodesMetersInPrometheusFormat() throws Exception {
        int port = freePort();
        try (MiniCluster c = MiniCluster.start(1, null, Map.of("metrics.http-port", port))) {
            c.awaitMetadata();
            try (AutoDiskClient client = c.clientOf(0)) {
                for (int i = 0; i < 5; i++) {
                    client.insert("k" + i, "v");
                }
            }
            HttpResponse<String> r = get(port, "/metrics");

            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("content-type")).hasValue(ScrapeHandler.CONTENT_TYPE);
            assertThat(requests(r.body())).isGreaterThanOrEqualTo(5);
            assertThat(r.body()).contains("autodisk_queue_wait_seconds", "jvm_memory_used_bytes",
                    "# TYPE autodisk_requests_total counter");
        }
    }

    @Test
    void otherPathsAndMethodsAreRefused() throws Exception {
        int port = freePort();
        try (MiniCluster c = MiniCluster.start(1, null, Map.of("metrics.http-port", port))) {
            assertThat(get(port, "/").statusCode()).isEqualTo(404);
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/metrics")).POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
        }
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static double requests(String body) {
        return body.lines().filter(l -> l.startsWith("autodisk_requests_total{")).filter(l -> l.contains(
                "node=\"d1\"")).mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** A port out of the kernel's ephemeral range, which another test JVM's outgoing connections may take. */
    private static int freePort() {
        return MiniCluster.freeFixedPort();
    }
}
