package org.autodisk.it.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.it.OwnThread;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Crash and restart of a node container: while pipelined inserts through d1 are in flight, d2's container is
 * killed ({@code docker kill}, SIGKILL); a new d2 container is started on the same volume. Every insert that
 * was acknowledged must then be readable, through d1 (forwarded) and through the new d2.
 */
@RequiresDocker
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class KillAndRestartIT {

    private static final int MAX_KEYS = 20_000;
    private static final long PAUSE_NANOS = 500_000;
    private static final int IN_FLIGHT = 32;
    private static final int ACKED_BEFORE_KILL = 600;

    private static ContainerCluster cluster;

    @BeforeAll
    static void startCluster() {
        // no failover: the test checks what the restarted d2 serves from its own volume
        cluster = ClusterTopology.builder("restart").dataNodes(2).logNodes(1).persistentStores(true)
                .env("AUTODISK_FAILURE_SUSPECT_MS", "0").build().start(AutoDiskImage.name());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyAcknowledgedInsertSurvivesAKillAndARestartOnTheSameVolume() throws Exception {
        Map<String, byte[]> acked = new ConcurrentHashMap<>();
        List<byte[]> keys;
        try (AutoDiskClient viaD1 = cluster.client("d1")) {
            ClusterStatus status = viaD1.status();
            RangeStatus d1Range = RangeKeys.ownedBy(status, "d1").get(0);
            RangeStatus d2Range = RangeKeys.ownedBy(status, "d2").get(0);
            keys = new ArrayList<>();
            for (int i = 0; i < MAX_KEYS; i++) {
                keys.add(RangeKeys.keyIn(i % 2 == 0 ? d1Range : d2Range, String.format("crash-%05d", i)));
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger failed = new AtomicInteger();
            CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> write(viaD1, keys, acked, failed,
                    stop), OwnThread.named("writer"));
            await("acknowledged inserts before the kill").atMost(Duration.ofMinutes(2))
                    .until(() -> acked.size() >= ACKED_BEFORE_KILL || writer.isDone());
            cluster.kill("d2");
            long killedAt = System.nanoTime();
            await("inserts owned by the dead d2 fail").atMost(Duration.ofMinutes(1))
                    .until(() -> failed.get() > 0 || writer.isDone());
            stop.set(true);
            int sent = writer.get(2, TimeUnit.MINUTES);
            System.err.printf("[container ITs] %d inserts sent, %d acknowledged; d2 killed %.1f s before the end%n",
                    sent, acked.size(), (System.nanoTime() - killedAt) / 1e9);
            assertThat(acked.size()).isGreaterThanOrEqualTo(ACKED_BEFORE_KILL);
            assertThat(acked.size()).as("inserts owned by the dead d2 failed").isLessThan(sent);
        }

        cluster.restart("d2");

        long d2Acked = acked.keySet().stream().filter(k -> k.contains("-d2-")).count();
        assertThat(d2Acked).as("acknowledged inserts owned by d2").isPositive();
        try (AutoDiskClient viaD1 = cluster.client("d1"); AutoDiskClient viaD2 = cluster.client("d2")) {
            await("d1 reaches the new d2").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> viaD1.status().nodes().stream().allMatch(NodeStatus::reachable));
            for (Map.Entry<String, byte[]> e : acked.entrySet()) {
                byte[] key = keyOf(keys, e.getKey());
                assertThat(viaD2.search(key)).as("through d2: %s", e.getKey()).map(String::new)
                        .contains(new String(e.getValue(), StandardCharsets.UTF_8));
                assertThat(viaD1.search(key)).as("through d1: %s", e.getKey()).map(String::new)
                        .contains(new String(e.getValue(), StandardCharsets.UTF_8));
            }
            NodeStatus d2 = viaD1.status().nodes().stream().filter(n -> n.id().equals("d2")).findFirst().orElseThrow();
            assertThat(d2.streamCount()).isGreaterThanOrEqualTo(d2Acked);
        }
    }

    /**
     * Inserts the keys in order, at most {@link #IN_FLIGHT} at a time and about 2000 a second, until all are sent
     * or {@code stop} is set. Records each acknowledged one by a readable name ({@code INDEX-OWNER-}).
     */
    private static int write(AutoDiskClient client, List<byte[]> keys, Map<String, byte[]> acked,
            AtomicInteger failed, AtomicBoolean stop) {
        Semaphore window = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        int sent = 0;
        for (; sent < keys.size() && !stop.get(); sent++) {
            window.acquireUninterruptibly();
            LockSupport.parkNanos(PAUSE_NANOS);
            String name = sent + "-" + (sent % 2 == 0 ? "d1" : "d2") + "-";
            byte[] value = ("value-" + name).getBytes(StandardCharsets.UTF_8);
            CompletableFuture<Void> f = client.async().insert(keys.get(sent), value);
            all.add(f.whenComplete((ok, err) -> {
                window.release();
                if (err == null) {
                    acked.put(name, value);
                } else {
                    failed.incrementAndGet();
                }
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        return sent;
    }

    private static byte[] keyOf(List<byte[]> keys, String name) {
        return keys.get(Integer.parseInt(name.substring(0, name.indexOf('-'))));
    }
}
