package org.autodisk.node.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.store.LocalStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep of stray spans in an in-process cluster (three data nodes, one log node, stores in RocksDB, a sweep every
 * 300 ms): streams that d3's store and backup copy hold of ranges placed elsewhere (as a crash between a change and
 * its clean-up leaves them) go, while what it owns and backs up, and every stream the cluster serves, stay.
 */
class StraySweepClusterTest {

    @Test
    void aRunningNodeDropsItsStraySpansAndKeepsItsOwn(@TempDir Path dir) {
        try (MiniCluster c = MiniCluster.start(3, 1, dir, Map.of("store.sweep-ms", 300))) {
            AutoDiskClient client = c.clientOf(0);
            byte[] d1s = {0x10};
            byte[] d2s = {(byte) 0x60};
            byte[] d3s = {(byte) 0xd0};
            for (byte[] k : List.of(d1s, d2s, d3s)) {
                client.insert(k, Keys.utf8("served"));
            }
            LocalStore store = c.node(2).store();
            LocalStore copy = c.node(2).backups().copy();
            await().atMost(Duration.ofSeconds(20)).until(() -> copy.get(d2s) != null); // d3 backs up d2's range
            byte[] strayInStore = {0x11};
            byte[] strayInCopy = {0x12};
            store.ingest(List.of(new KeyValue(strayInStore, Keys.utf8("left"))), Map.of());
            copy.ingest(List.of(new KeyValue(strayInCopy, Keys.utf8("left"))), Map.of());

            await().atMost(Duration.ofSeconds(30)).until(() -> store.get(strayInStore) == null
                    && copy.get(strayInCopy) == null);
            assertThat(store.get(d3s)).as("its own range").isNotNull();
            assertThat(copy.get(d2s)).as("the range it backs up").isNotNull();
            for (byte[] k : List.of(d1s, d2s, d3s)) {
                assertThat(client.search(k)).hasValue(Keys.utf8("served"));
            }
        }
    }
}
