package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data node whose store's writes keep failing (its disk full, through the fault hook) falls silent after
 * {@code store.failover-after-ms}: the others declare it failed and its ranges go to their backups with every
 * acknowledged write; once its disk takes writes again it rejoins.
 */
class DiskFullFailoverTest {

    @TempDir
    Path dir;

    @Test
    void aDataNodeWhoseStoreKeepsFailingFallsSilentSoItsRangesFailOverAndItRejoinsOnceItWrites() throws Exception {
        try (MiniCluster c = MiniCluster.start(3, 2, dir, config())) {
            AutoDiskClient client = client(c);
            Map<String, String> acked = new TreeMap<>();
            write(client, acked, 0, 300, "before");
            MetaState before = c.node(1).metadata().current();
            List<RangeDescriptor> owned = before.ranges().stream().filter(r -> r.owner().equals("d1")).toList();
            assertThat(owned).isNotEmpty().allSatisfy(r -> assertThat(r.backup()).isNotNull());

            Path hooks = Files.createDirectories(c.config(0).dataDir().resolve("hooks"));
            Files.writeString(hooks.resolve("disk-full"), "");
            // writes to one of d1's ranges now fail on its store, and tell the node so
            byte[] probe = keyOf(owned.get(0));
            AutoDiskClient impatient = c.impatientClientOf(0);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                try {
                    impatient.insert(probe, Keys.utf8("during"));
                } catch (RuntimeException expected) {
                    // refused, or of unknown outcome: not counted
                }
                return c.node(1).metadata().current().member("d1").state() == MemberState.FAILED
                        && owned.stream().allMatch(r -> !c.node(1).metadata().current().range(r.id()).owner()
                        .equals("d1"));
            });
            MetaState after = c.node(1).metadata().current();
            for (RangeDescriptor r : owned) {
                assertThat(after.range(r.id()).owner()).as("range %d went to its backup", r.id())
                        .isEqualTo(r.backup());
            }
            write(client, acked, 300, 400, "after");
            assertEveryWriteReads(client, acked);

            Files.delete(hooks.resolve("disk-full"));
            await().atMost(Duration.ofSeconds(60)).until(() -> c.node(1).metadata().current().member("d1").state()
                    == MemberState.UP);
            assertEveryWriteReads(client, acked);
        }
    }

    @Test
    void aDataNodeWhoseBackupCopyAloneKeepsFailingFallsSilentToo() throws Exception {
        try (MiniCluster c = MiniCluster.start(3, 2, dir, config())) {
            AutoDiskClient client = client(c);
            Map<String, String> acked = new TreeMap<>();
            write(client, acked, 0, 300, "before");
            List<RangeDescriptor> backedUp = c.node(1).metadata().current().ranges().stream()
                    .filter(r -> "d1".equals(r.backup()) && !r.owner().equals("d1")).toList();
            assertThat(backedUp).isNotEmpty();

            Path hooks = Files.createDirectories(c.config(0).dataDir().resolve("hooks"));
            Files.writeString(hooks.resolve("disk-full"), "");
            // only ranges d1 backs up are written: its own store takes nothing, its backup copy fails (the log nodes
            // catch a backup up once its range is idle for wal.catch-up-idle-ms: a write every poll, 500 ms apart)
            byte[] key = keyOf(backedUp.get(0));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
                client.insert(key, Keys.utf8("during"));
                acked.put(HexFormat.of().formatHex(key), "during");
                return c.node(1).metadata().current().member("d1").state() == MemberState.FAILED;
            });
            Files.delete(hooks.resolve("disk-full"));
            await().atMost(Duration.ofSeconds(60)).until(() -> c.node(1).metadata().current().member("d1").state()
                    == MemberState.UP);
            assertEveryWriteReads(client, acked);
        }
    }

    private static Map<String, Object> config() {
        Map<String, Object> config = new HashMap<>(FailoverTest.CONFIG);
        config.put("fault.hooks-dir", "hooks");
        config.put("store.failover-after-ms", 1500);
        return config;
    }

    private static AutoDiskClient client(MiniCluster c) {
        return AutoDiskClient.builder().seeds(c.address(1), c.address(2)).requestTimeout(Duration.ofSeconds(20))
                .build();
    }

    private static byte[] keyOf(RangeDescriptor r) {
        for (int i = 1000; i < 5000; i++) { // none of the keys written
            if (r.contains(FailoverTest.key(i))) {
                return FailoverTest.key(i);
            }
        }
        throw new IllegalStateException("no test key in range " + r.id());
    }

    private static void write(AutoDiskClient client, Map<String, String> acked, int from, int to, String tag) {
        for (int i = from; i < to; i++) {
            String value = tag + "-" + i;
            client.insert(FailoverTest.key(i), Keys.utf8(value));
            acked.put(HexFormat.of().formatHex(FailoverTest.key(i)), value);
        }
    }

    private static void assertEveryWriteReads(AutoDiskClient client, Map<String, String> acked) {
        acked.forEach((k, v) -> assertThat(client.search(HexFormat.of().parseHex(k)).map(String::new))
                .as("key %s", k).contains(v));
    }
}
