package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.autodisk.core.Keys;
import org.autodisk.node.store.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * The page store keeps what a node's copies hold across a restart - pages put, dropped and the root - with its
 * pending changes, reserved change numbers and the records of other nodes' changes, in RocksDB as in memory; and
 * change numbers never repeat after one.
 */
class PageStoreTest {

    private static final byte[] FORMAT = "format".getBytes(StandardCharsets.US_ASCII);

    private static final Page LEFT = new Page(1L << 20 | 1 << 12, 1, new byte[0], Keys.utf8("m"),
            List.of(new Entry(new byte[0], 0, List.of("d1")), new Entry(Keys.utf8("c"), 1, List.of("d2"))), 3);
    private static final Page RIGHT = new Page(1L << 20 | 1 << 12 | 1, 1, Keys.utf8("m"), null,
            List.of(new Entry(Keys.utf8("m"), 2, List.of("d2"))), 1);
    private static final Page ROOT = new Page(1L << 20 | 2 << 12, 2, new byte[0], null,
            List.of(StructureChanges.entryOf(LEFT), StructureChanges.entryOf(RIGHT)), 1);

    @Test
    void rocksKeepsCopiesPendingChangesAndReservationsAcrossAReopen(@TempDir Path dir) {
        try (RocksPageStore store = RocksPageStore.open(dir)) {
            fill(store);
        }
        try (RocksPageStore store = RocksPageStore.open(dir)) {
            check(store.load());
        }
    }

    @Test
    void aStoreOfAnotherFormatIsRefusedAndOneWithoutAFormatGetsThisOne(@TempDir Path dir) throws Exception {
        try (RocksPageStore store = RocksPageStore.open(dir)) {
            fill(store);
        }
        try (Options o = new Options(); RocksDB raw = RocksDB.open(o, dir.toString())) {
            assertThat(raw.get(FORMAT)).containsExactly(0, 0, 0, RocksPageStore.FORMAT);
            raw.delete(FORMAT); // as a build from before the format wrote it
        }
        try (RocksPageStore store = RocksPageStore.open(dir)) {
            check(store.load());
        }
        try (Options o = new Options(); RocksDB raw = RocksDB.open(o, dir.toString())) {
            assertThat(raw.get(FORMAT)).containsExactly(0, 0, 0, RocksPageStore.FORMAT);
            raw.put(FORMAT, new byte[] {0, 0, 0, 2});
        }
        assertThatThrownBy(() -> RocksPageStore.open(dir)).isInstanceOf(StoreException.class)
                .hasMessageContaining("is of format 2; this build reads format 1 only")
                .hasMessageContaining("takes its index copies up again from its peers");
        try (Options o = new Options(); RocksDB raw = RocksDB.open(o, dir.toString())) {
            assertThat(raw.get(FORMAT)).as("the refused store is left as it was").containsExactly(0, 0, 0, 2);
        }
    }

    @Test
    void recordsOfOtherNodesChangesAndTheirReleasesOutliveAReopen(@TempDir Path dir) {
        for (int round = 0; round < 2; round++) {
            try (RocksPageStore rocks = RocksPageStore.open(dir.resolve("r"));
                    PageStore memory = new InMemoryPageStore()) {
                for (PageStore store : List.of(rocks, memory)) {
                    PeerRecords kept = new PeerRecords(store);
                    kept.take("a-node-named-" + "x".repeat(140), batchWithRecord(7));
                    kept.take("d3", batchWithRecord(8));
                    kept.take("d3", batchWithRecord(9));
                    kept.take("d3", new PageMessage.Release(8));
                    PeerRecords again = new PeerRecords(store);
                    assertThat(again.of("d3")).containsOnlyKeys(9L);
                    assertThat(again.of("d3").get(9L)).isEqualTo(batchWithRecord(9).record());
                    assertThat(again.releasedOf("d3")).containsExactly(8L);
                    assertThat(again.of("a-node-named-" + "x".repeat(140))).containsOnlyKeys(7L);
                    again.take("d3", new PageMessage.Restarted(List.of()));
                    assertThat(new PeerRecords(store).of("d3")).isEmpty();
                    assertThat(new PeerRecords(store).releasedOf("d3")).isEmpty();
                }
            }
        }
    }

    private static PageMessage.Batch batchWithRecord(long change) {
        PageBatch b = new PageBatch(change, List.of(LEFT, ROOT), List.of(new PageBatch.Dropped(RIGHT.id(), 2)), -1);
        return new PageMessage.Batch(b, Map.of("d1", b, "d2", new PageBatch(change, List.of(ROOT), List.of(),
                ROOT.id())));
    }

    @Test
    void inMemoryKeepsTheSame() {
        InMemoryPageStore store = new InMemoryPageStore();
        fill(store);
        check(store.load());
    }

    @Test
    void copiesWrittenThroughNodeCopiesAreWhatARestartTakesUp() {
        InMemoryPageStore store = new InMemoryPageStore();
        NodeCopies copies = new NodeCopies("d2", null);
        copies.keepIn(store);
        copies.apply(new PageBatch(5, List.of(LEFT, RIGHT, ROOT), List.of(), ROOT.id()));
        copies.apply(new PageBatch(6, List.of(), List.of(new PageBatch.Dropped(RIGHT.id(), RIGHT.version() + 1)),
                -1));
        NodeCopies again = new NodeCopies("d2", null);
        again.restore(store, store.load());
        assertThat(again.pages()).isEqualTo(copies.pages()).doesNotContainKey(RIGHT.id());
        assertThat(again.rootId()).isEqualTo(ROOT.id());
    }

    @Test
    void changeNumbersNeverRepeatAfterARestartAndNameTheNode() {
        InMemoryPageStore store = new InMemoryPageStore();
        ChangeNumbers first = new ChangeNumbers(store, 3, store.load().reserved());
        long used = 0;
        for (int i = 0; i < 1500; i++) {
            used = first.next();
        }
        ChangeNumbers second = new ChangeNumbers(store, 3, store.load().reserved());
        long next = second.next();
        assertThat(next).isGreaterThan(used);
        assertThat(next & 0xff).isEqualTo(3);
    }

    private static void fill(PageStore store) {
        store.write(List.of(LEFT, RIGHT, ROOT), List.of(), ROOT.id());
        store.write(List.of(), List.of(RIGHT.id()), -1);
        store.pending(777, Map.of("d1", new PageBatch(777, List.of(LEFT), List.of(), -1),
                "d3", new PageBatch(777, List.of(), List.of(new PageBatch.Dropped(9, 2)), -1)));
        store.pending(778, Map.of("d1", new PageBatch(778, List.of(ROOT), List.of(), ROOT.id())));
        store.done(778);
        store.reserve(4096);
    }

    private static void check(PageStore.Contents c) {
        assertThat(c.pages()).containsOnlyKeys(LEFT.id(), ROOT.id());
        assertThat(c.pages().get(LEFT.id()).sameAs(LEFT)).isTrue();
        assertThat(c.root()).isEqualTo(ROOT.id());
        assertThat(c.pending()).containsOnlyKeys(777L);
        assertThat(c.pending().get(777L)).containsOnlyKeys("d1", "d3");
        assertThat(c.pending().get(777L).get("d3").drops()).containsExactly(new PageBatch.Dropped(9, 2));
        assertThat(c.reserved()).isEqualTo(4096);
    }
}
