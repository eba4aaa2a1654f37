package org.autodisk.it.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.StreamEntry;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MemberStatus;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.SplitResult;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shipped {@code docker/docker-compose.yml} (4 data nodes, 2 log nodes) with the image under test: every
 * node becomes healthy, and a Java client with one published port as its only seed inserts, reads, traverses
 * and deletes across the whole cluster.
 */
@RequiresDocker
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ComposeSmokeIT {

    private static final List<String> SERVICES = List.of("d1", "d2", "d3", "d4", "l1", "l2");
    private static final int KEYS_PER_RANGE = 20;

    private static ComposeEnvironment compose;
    private static final Map<String, Integer> PORTS = new LinkedHashMap<>();
    private static final Map<String, Integer> METRICS_PORTS = new LinkedHashMap<>();

    @BeforeAll
    static void up() throws IOException {
        Optional<String> missing = ComposeEnvironment.unavailable();
        if (missing.isPresent() && DockerCondition.inCi()) {
            throw new AssertionError("CI=true but " + missing.get() + ": the compose suite must run in CI");
        }
        assumeTrue(missing.isEmpty(), () -> "compose suite skipped: " + missing.get());
        Map<String, String> env = new LinkedHashMap<>();
        env.put("AUTODISK_IMAGE", AutoDiskImage.name());
        for (String node : List.of("d1", "d2", "d3", "d4")) {
            int port = freePort();
            PORTS.put(node, port);
            env.put("AUTODISK_" + node.toUpperCase() + "_PORT", String.valueOf(port));
            int metrics = freePort();
            METRICS_PORTS.put(node, metrics);
            env.put("AUTODISK_" + node.toUpperCase() + "_METRICS_PORT", String.valueOf(metrics));
        }
        compose = ComposeEnvironment.up(AutoDiskImage.repositoryRoot().resolve("docker/docker-compose.yml"), env,
                SERVICES, "compose");
    }

    @AfterAll
    static void down() {
        if (compose != null) {
            compose.close();
        }
    }

    @Test
    void composeClusterServesAClientThroughOnePublishedPort() {
        for (String service : SERVICES) {
            assertThat(compose.service(service).getCurrentContainerInfo().getState().getHealth().getStatus())
                    .as(service).isEqualTo("healthy");
        }
        try (AutoDiskClient viaD1 = client("d1"); AutoDiskClient viaD4 = client("d4")) {
            ClusterStatus status = viaD1.status();
            assertThat(status.nodes()).extracting(NodeStatus::id).containsExactly("d1", "d2", "d3", "d4", "l1", "l2");
            assertThat(status.nodes()).extracting(NodeStatus::role)
                    .containsExactly("data", "data", "data", "data", "log", "log");
            assertThat(status.nodes()).allMatch(NodeStatus::reachable, "every node reachable from d1");
            assertThat(status.ranges()).extracting(RangeStatus::owner).containsExactly("d1", "d2", "d3", "d4");

            Map<byte[], String> written = new TreeMap<>(Arrays::compareUnsigned);
            for (RangeStatus range : status.ranges()) {
                for (int i = 0; i < KEYS_PER_RANGE; i++) {
                    written.put(RangeKeys.keyIn(range, "smoke-" + i), range.owner() + "/" + i);
                }
            }
            written.forEach((k, v) -> viaD1.insert(k, v.getBytes(StandardCharsets.UTF_8)));

            written.forEach((k, v) -> assertThat(viaD4.search(k)).map(String::new).contains(v));
            List<StreamEntry> all = viaD4.traverse(new byte[0], null, 1000);
            assertThat(all).extracting(e -> new String(e.value(), StandardCharsets.UTF_8))
                    .containsExactlyElementsOf(written.values());
            assertThat(viaD4.status().nodes()).filteredOn(n -> n.role().equals("data"))
                    .extracting(NodeStatus::streamCount).containsOnly((long) KEYS_PER_RANGE);

            List<byte[]> keys = new ArrayList<>(written.keySet());
            try (AutoDiskClient viaD2 = client("d2")) {
                assertThat(viaD2.delete(keys.get(0))).isTrue();
            }
            assertThat(viaD1.search(keys.get(0))).isEmpty();
            assertThat(viaD4.search(keys.get(keys.size() - 1))).isPresent();
        }
    }

    @Test
    void theFirstThreeDataNodesVoteOnTheMetadataAndASplitReachesEveryNode() {
        try (AutoDiskClient viaD1 = client("d1"); AutoDiskClient viaD4 = client("d4")) {
            MembersReport members = viaD4.admin().members();
            assertThat(members.members()).filteredOn(MemberStatus::voter).extracting(MemberStatus::id)
                    .containsExactly("d1", "d2", "d3");
            assertThat(members.leader()).isIn("d1", "d2", "d3");

            SplitResult split = viaD1.admin().split("compose-split");
            assertThat(split.version()).isGreaterThan(members.version());
            assertThat(split.right().lowHex()).isEqualTo(HexFormat.of().formatHex(
                    "compose-split".getBytes(StandardCharsets.UTF_8)));
            Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(viaD4.admin().ranges().ranges()).extracting(RangeStatus::lowHex)
                            .contains(split.right().lowHex()));
        }
    }

    @Test
    void everyDataNodeServesItsMetricsToPrometheusAndTextKeysSpreadOverAllFour() throws Exception {
        try (AutoDiskClient viaD2 = client("d2")) {
            assertThat(viaD2.admin().ranges().ranges()).extracting(RangeStatus::lowHex).contains("", hex("g"),
                    hex("n"), hex("t"));
        }
        HttpClient http = HttpClient.newHttpClient();
        for (String node : List.of("d1", "d2", "d3", "d4")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:"
                    + METRICS_PORTS.get(node) + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(node).isEqualTo(200);
            assertThat(r.body()).as(node).contains("autodisk_requests_total{node=\"" + node + "\"");
        }
    }

    private static String hex(String text) {
        return HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8));
    }

    private static AutoDiskClient client(String node) {
        return AutoDiskClient.builder().seeds("localhost:" + PORTS.get(node)).requestTimeout(Duration.ofSeconds(20))
                .build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
