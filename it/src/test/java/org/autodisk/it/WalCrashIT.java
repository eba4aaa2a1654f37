package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.NodeUnavailableException;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.NodeStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash tests with separate processes and {@code kill -9}: no acknowledged insert is lost, and nothing is
 * acknowledged without a durable log record.
 */
class WalCrashIT {

    @TempDir
    Path dir;

    @Test
    void killedDataNodeReplaysItsLogAndKeepsEveryAcknowledgedInsert() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(dir, 2, 1, FreePorts.base(4), List.of(),
                "wal.multiplicity: 1\n");
                AutoDiskClient viaD1 = client(cluster, 0)) {
            Map<String, String> acked = new ConcurrentHashMap<>();
            AtomicInteger failed = new AtomicInteger();
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> load(viaD1, "crash", 4000, acked, failed));
            awaitAcked(acked, 1000);
            cluster.kill(1);
            load.join();
            cluster.restart(1);
            assertThat(acked.size()).isGreaterThan(1000);
            assertEveryAckedKeyIsThere(viaD1, acked);
        }
    }

    @Test
    void logNodeDownWithMultiplicityOneFailsFastNamingItAndRecovers() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(dir, 2, 1, FreePorts.base(4), List.of(),
                "wal.multiplicity: 1\n");
                AutoDiskClient viaD1 = client(cluster, 0)) {
            viaD1.insert("before", "1");
            cluster.kill(2);
            assertThatThrownBy(() -> viaD1.insert("during", "2")).isInstanceOf(NodeUnavailableException.class)
                    .hasMessageContaining("l1");
            assertThat(viaD1.search("during")).isEmpty();
            cluster.restart(2);
            viaD1.insert("after", "3");
            assertThat(viaD1.search("before")).map(String::new).contains("1");
            assertThat(viaD1.search("after")).map(String::new).contains("3");
        }
    }

    @Test
    void withMultiplicityTwoALogNodeKilledUnderLoadDoesNotStopInsertsAndIsCaughtUpWhenBack() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(dir, 2, 2, FreePorts.base(4), List.of(),
                "wal.multiplicity: 2\n");
                AutoDiskClient viaD1 = client(cluster, 0)) {
            Map<String, String> acked = new ConcurrentHashMap<>();
            AtomicInteger failed = new AtomicInteger();
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> load(viaD1, "m2", 3000, acked, failed));
            awaitAcked(acked, 500);
            cluster.kill(2);
            load.join();
            Map<String, String> after = new ConcurrentHashMap<>();
            load(viaD1, "m2-after", 200, after, failed);
            assertThat(after).hasSize(200);
            List<NodeStatus> nodes = viaD1.status().nodes();
            NodeStatus d1 = nodes.stream().filter(n -> n.id().equals("d1")).findFirst().orElseThrow();
            assertThat(d1.metrics()).as("d1 (it owns every key of the load) reports degraded multiplicity")
                    .containsEntry("wal.degraded", 1.0);
            assertEveryAckedKeyIsThere(viaD1, acked);
            cluster.restart(2);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                viaD1.insert("restore-probe", "x");
                return viaD1.status().nodes().get(0).metrics().get("wal.degraded") == 0.0;
            });
        }
    }

    private static void load(AutoDiskClient client, String prefix, int n, Map<String, String> acked,
            AtomicInteger failed) {
        Semaphore window = new Semaphore(32);
        for (int i = 0; i < n; i++) {
            String key = (char) ('a' + i % 26) + "-" + prefix + "-" + i;
            String value = "v" + i;
            window.acquireUninterruptibly();
            client.async().insert(key, value).whenComplete((ok, err) -> {
                if (err == null) {
                    acked.put(key, value);
                } else {
                    failed.incrementAndGet();
                }
                window.release();
            });
        }
        window.acquireUninterruptibly(32);
    }

    private static void awaitAcked(Map<String, String> acked, int n) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> acked.size() >= n);
    }

    private static void assertEveryAckedKeyIsThere(AutoDiskClient client, Map<String, String> acked) {
        List<CompletableFuture<Void>> checks = acked.entrySet().stream().map(e -> client.async()
                .search(Keys.utf8(e.getKey())).thenAccept(v -> assertThat(v).as(e.getKey())
                        .hasValueSatisfying(b -> assertThat(new String(b)).isEqualTo(e.getValue())))).toList();
        checks.forEach(CompletableFuture::join);
    }

    private static AutoDiskClient client(LocalCluster cluster, int node) {
        return AutoDiskClient.builder().seeds(cluster.addresses().get(node)).requestTimeout(Duration.ofSeconds(20))
                .build();
    }
}
