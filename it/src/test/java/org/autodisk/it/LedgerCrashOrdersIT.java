package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.RangeStatus;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-process crash orders with m = 2: three data nodes and two log nodes in separate processes, load on d3's range
 * through d1, and log nodes and the owner d3 killed with {@code kill -9} and started again in several orders. After
 * each order every acknowledged insert is there with its value, and inserts are acknowledged again.
 */
class LedgerCrashOrdersIT {

    private static final int D3 = 2;
    private static final int L1 = 3;
    private static final int L2 = 4;

    @TempDir
    Path dir;

    private final Map<String, String> acked = new ConcurrentHashMap<>();
    private final AtomicInteger sequence = new AtomicInteger();

    @Test
    void everyAcknowledgedInsertSurvivesLogNodesAndTheOwnerKilledInSeveralOrders() throws Exception {
        // no balancing, no failover: d3 stays the owner of the range the test keeps busy
        try (LocalCluster c = LocalCluster.start(dir, 3, 2, FreePorts.base(5), List.of(),
                "wal.multiplicity: 2\nbalance.check-ms: 0\nfailure.suspect-ms: 0\n");
                AutoDiskClient viaD1 = WalCrashIT.client(c, 0)) {
            RangeStatus range = viaD1.status().ranges().stream().filter(r -> r.owner().equals("d3")).findFirst()
                    .orElseThrow();
            underLoad(viaD1, range, () -> {
                c.kill(L1);
                c.kill(D3);
                c.restart(D3);
                c.restart(L1);
            });
            checkAfter("log node l1, then the owner d3 killed; d3, then l1 restarted", viaD1, range);
            underLoad(viaD1, range, () -> {
                c.kill(D3);
                c.kill(L2);
                c.restart(D3);
                c.restart(L2);
            });
            checkAfter("the owner d3, then log node l2 killed; d3, then l2 restarted", viaD1, range);
            underLoad(viaD1, range, () -> {
                c.kill(L1);
                c.kill(L2);
                c.kill(D3);
                c.restart(L2);
                c.restart(L1);
                c.restart(D3);
            });
            checkAfter("both log nodes, then the owner killed; l2, l1, d3 restarted", viaD1, range);
            assertThat(WalCrashIT.lastReplay(c, "d3")).as("d3 replayed its ledgers after kill -9").isNotNegative();
        }
    }

    /** What the test does to the cluster while the load runs. */
    private interface Faults {
        void run() throws Exception;
    }

    private void underLoad(AutoDiskClient client, RangeStatus range, Faults faults) throws Exception {
        int before = acked.size();
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<Void> load = CompletableFuture.runAsync(() -> load(client, range, stop),
                OwnThread.named("load"));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> acked.size() >= before + 200);
        try {
            faults.run();
        } finally {
            stop.set(true);
            load.join();
        }
    }

    private void checkAfter(String order, AutoDiskClient client, RangeStatus range) {
        Awaitility.await(order).atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            client.insert(WalCrashIT.keyIn(range, "probe"), "x".getBytes(StandardCharsets.UTF_8));
            return true;
        });
        int before = acked.size();
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<Void> load = CompletableFuture.runAsync(() -> load(client, range, stop),
                OwnThread.named("load"));
        Awaitility.await(order).atMost(Duration.ofSeconds(60)).until(() -> acked.size() >= before + 100);
        stop.set(true);
        load.join();
        WalCrashIT.assertEveryAckedKeyIsThere(client, acked);
    }

    private void load(AutoDiskClient client, RangeStatus range, AtomicBoolean stop) {
        Semaphore window = new Semaphore(16);
        while (!stop.get()) {
            int i = sequence.incrementAndGet();
            byte[] key = WalCrashIT.keyIn(range, "order-" + i);
            String value = "v" + i;
            window.acquireUninterruptibly();
            client.async().insert(key, value.getBytes(StandardCharsets.UTF_8)).whenComplete((ok, err) -> {
                if (err == null) {
                    acked.put(HexFormat.of().formatHex(key), value);
                }
                window.release();
            });
        }
        window.acquireUninterruptibly(16);
    }
}
