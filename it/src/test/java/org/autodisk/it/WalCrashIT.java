package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.NodeUnavailableException;
import org.autodisk.client.OutcomeUnknownException;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;
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
        // no balancing, no failover: the killed owner keeps every key the test writes
        try (LocalCluster cluster = LocalCluster.start(dir, 2, 1, FreePorts.base(4), List.of(),
                "wal.multiplicity: 1\nbalance.check-ms: 0\nfailure.suspect-ms: 0\n");
                AutoDiskClient viaD1 = client(cluster, 0)) {
            RangeStatus range = viaD1.status().ranges().stream().filter(r -> !r.owner().equals("d1")).findFirst()
                    .orElseThrow();
            String victim = range.owner();
            IntFunction<byte[]> key = i -> keyIn(range, "crash-" + i);
            Map<String, String> acked = new ConcurrentHashMap<>();
            AtomicInteger failed = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> load(viaD1, key, 4000, acked, failed,
                    stop), OwnThread.named("load"));
            awaitAcked(acked, 1000);
            cluster.kill(cluster.ids().indexOf(victim));
            stop.set(true); // the client sends the inserts in flight again until its request timeout: they fail
            load.join();
            cluster.restart(cluster.ids().indexOf(victim));
            assertThat(acked.size()).isGreaterThan(1000);
            assertThat(lastReplay(cluster, victim)).as(victim + ", the owner of every key, replayed its log after "
                    + "kill -9 (RocksDB's own WAL is off)").isPositive();
            assertEveryAckedKeyIsThere(viaD1, acked);
        }
    }

    /** A key in a range: its low key (the empty key for the first range) followed by a suffix. */
    static byte[] keyIn(RangeStatus range, String suffix) {
        byte[] low = range.low();
        byte[] key = java.util.Arrays.copyOf(low, low.length + suffix.length());
        System.arraycopy(suffix.getBytes(StandardCharsets.US_ASCII), 0, key, low.length, suffix.length());
        if (range.high() != null && Keys.compare(key, range.high()) >= 0) {
            throw new IllegalStateException("no room for keys in " + range);
        }
        return key;
    }

    /** The count of the last "recovery: replayed N records" (or "N entries", with ledgers) line the node logged. */
    static long lastReplay(LocalCluster cluster, String node) throws java.io.IOException {
        Matcher m = Pattern.compile("recovery: replayed (\\d+) (records|entries)").matcher(Files.readString(
                cluster.dir().resolve(node + ".log")));
        long last = -1;
        while (m.find()) {
            last = Long.parseLong(m.group(1));
        }
        return last;
    }

    @Test
    void logNodeDownWithMultiplicityOneFailsNamingItAndRecovers() throws Exception {
        // a short request timeout: the client sends a write its node refused before logging it again until then
        try (LocalCluster cluster = LocalCluster.start(dir, 2, 1, FreePorts.base(4), List.of(),
                "wal.multiplicity: 1\nbalance.check-ms: 0\nfailure.suspect-ms: 0\n");
                AutoDiskClient viaD1 = AutoDiskClient.builder().seeds(cluster.addresses().get(0))
                        .requestTimeout(Duration.ofSeconds(3)).build()) {
            viaD1.insert("before", "1");
            cluster.kill(2);
            Throwable during = catchThrowable(() -> viaD1.insert("during", "2"));
            assertThat(during).as("never sent, or sent and not acknowledged")
                    .isInstanceOfAny(NodeUnavailableException.class, OutcomeUnknownException.class)
                    .hasMessageContaining("l1");
            // reads wait too: with its only log node down the owner holds no lease (it cannot tell it still owns)
            cluster.restart(2);
            viaD1.insert("after", "3");
            assertThat(viaD1.search("before")).map(String::new).contains("1");
            assertThat(viaD1.search("after")).map(String::new).contains("3");
            if (during instanceof NodeUnavailableException) {
                assertThat(viaD1.search("during")).as("refused before it was logged").isEmpty();
            }
        }
    }

    @Test
    void withMultiplicityTwoALogNodeKilledUnderLoadDoesNotStopInsertsAndIsCaughtUpWhenBack() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(dir, 2, 2, FreePorts.base(4), List.of(),
                "wal.multiplicity: 2\nbalance.check-ms: 0\nfailure.suspect-ms: 0\n");
                AutoDiskClient viaD1 = client(cluster, 0)) {
            Map<String, String> acked = new ConcurrentHashMap<>();
            AtomicInteger failed = new AtomicInteger();
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> load(viaD1, letters("m2"), 3000, acked,
                    failed, new AtomicBoolean()), OwnThread.named("load"));
            awaitAcked(acked, 500);
            cluster.kill(2);
            load.join();
            Map<String, String> after = new ConcurrentHashMap<>();
            load(viaD1, letters("m2-after"), 200, after, failed, new AtomicBoolean());
            assertThat(after).hasSize(200);
            List<NodeStatus> nodes = viaD1.status().nodes();
            NodeStatus d1 = nodes.stream().filter(n -> n.id().equals("d1")).findFirst().orElseThrow();
            assertThat(d1.metrics()).as("d1 (it owns every key of the load) reports degraded multiplicity")
                    .containsEntry("wal.degraded", 1.0);
            assertEveryAckedKeyIsThere(viaD1, acked);
            cluster.restart(2);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                viaD1.insert("restore-probe", "x");
                return viaD1.status().nodes().get(0).metrics().get(MetricNames.WAL_DEGRADED) == 0.0;
            });
        }
    }

    /** Keys a-..., z-... (all owned by d1 under the even split of two data nodes). */
    private static IntFunction<byte[]> letters(String prefix) {
        return i -> ((char) ('a' + i % 26) + "-" + prefix + "-" + i).getBytes(StandardCharsets.US_ASCII);
    }

    private static void load(AutoDiskClient client, IntFunction<byte[]> keys, int n, Map<String, String> acked,
            AtomicInteger failed, AtomicBoolean stop) {
        Semaphore window = new Semaphore(32);
        for (int i = 0; i < n && !stop.get(); i++) {
            byte[] key = keys.apply(i);
            String value = "v" + i;
            window.acquireUninterruptibly();
            client.async().insert(key, value.getBytes(StandardCharsets.UTF_8)).whenComplete((ok, err) -> {
                if (err == null) {
                    acked.put(HexFormat.of().formatHex(key), value);
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

    /** Searches every acknowledged key, 64 at a time, and checks its value. */
    static void assertEveryAckedKeyIsThere(AutoDiskClient client, Map<String, String> acked) {
        Semaphore window = new Semaphore(64);
        List<CompletableFuture<Void>> checks = acked.entrySet().stream().map(e -> {
            window.acquireUninterruptibly();
            return client.async().search(HexFormat.of().parseHex(e.getKey())).whenComplete((v, err) -> window
                    .release()).thenAccept(v -> assertThat(v).as(e.getKey())
                            .hasValueSatisfying(b -> assertThat(new String(b)).isEqualTo(e.getValue())));
        }).toList();
        checks.forEach(CompletableFuture::join);
    }

    static AutoDiskClient client(LocalCluster cluster, int node) {
        return AutoDiskClient.builder().seeds(cluster.addresses().get(node)).requestTimeout(Duration.ofSeconds(20))
                .build();
    }
}
