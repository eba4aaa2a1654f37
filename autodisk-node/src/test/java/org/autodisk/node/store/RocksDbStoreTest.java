package org.autodisk.node.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.autodisk.core.Keys;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksDbStoreTest extends LocalStoreContract {

    @TempDir
    Path dir;

    @Override
    protected LocalStore open() {
        return LocalStores.rocksDb(dir.resolve("db"), false);
    }

    @Test
    void reopenFindsTheDataAndTheExactCount() {
        for (int i = 0; i < 500; i++) {
            store.put(Keys.utf8("key-" + i), Keys.utf8("value-" + i));
        }
        store.delete(Keys.utf8("key-7"));
        store.applyLedger(4, List.of(new LogRecord(0, 1, 77, LogRecord.PUT, Keys.utf8("key-logged"), Keys.utf8("x"))));
        store.close();
        store = open();
        assertThat(store.count()).isEqualTo(500);
        assertThat(store.appliedEntry(4)).isEqualTo(77);
        assertThat(store.get(Keys.utf8("key-42"))).isEqualTo(Keys.utf8("value-42"));
        assertThat(store.get(Keys.utf8("key-7"))).isNull();
    }

    @Test
    void aSecondOpenOfTheSameDirectoryFailsClearly() {
        assertThatThrownBy(() -> LocalStores.rocksDb(dir.resolve("db"), false)).isInstanceOf(StoreException.class)
                .hasMessageContaining(dir.resolve("db").toString());
    }

    @Test
    void aLargeRangeIsEstimatedWithoutReadingIt() {
        RocksDbStore rocks = (RocksDbStore) store;
        java.util.Random random = new java.util.Random(1);
        for (int i = 0; i < 40_000; i++) {
            byte[] value = new byte[90];
            random.nextBytes(value);
            store.put(Keys.utf8(String.format("key-%06d", i)), value);
        }
        rocks.flush();
        byte[] low = Keys.utf8("key-010000");
        byte[] high = Keys.utf8("key-030000");
        RangeUsage estimated = rocks.usage(low, high, 100_000);
        assertThat(estimated.keys()).isBetween(14_000L, 26_000L);
        assertThat(estimated.bytes()).isBetween(20_000L * 60, 20_000L * 140);
        assertThat(rocks.usage(low, high)).isEqualTo(new RangeUsage(20_000, 20_000 * 100));
        assertThat(store.splitKey(low, high)).isNotNull().satisfies(k -> assertThat(Keys.compare(k, low)).isPositive());
    }

    @Test
    void aDeletedRangeGivesItsSpaceBackOnceReclaimed() throws Exception {
        fill(20_000);
        long full = tableBytes();
        byte[] low = Keys.utf8("key-005000");
        byte[] high = Keys.utf8("key-020000");
        assertThat(store.deleteRange(low, high)).isEqualTo(15_000);
        store.makeDurable();
        assertThat(tableBytes()).as("a deletion alone frees nothing").isGreaterThanOrEqualTo(full * 9 / 10);
        store.reclaim(low, high);
        assertThat(tableBytes()).as("three quarters of the streams were deleted").isLessThan(full * 4 / 10);
        assertThat(store.count()).isEqualTo(5_000);
        assertThat(store.get(Keys.utf8("key-004999"))).hasSize(1000);
        assertThat(store.get(Keys.utf8("key-005000"))).isNull();
        assertThat(store.get(Keys.utf8("key-019999"))).isNull();
    }

    @Test
    void aLargeSpanIsDeletedPieceByPieceWhileTheConditionHolds() {
        fill(25_000);
        int[] asked = {0};
        assertThat(store.deleteRangeIf(Keys.utf8("key-"), null, () -> asked[0]++ == 0)).as("one piece")
                .isEqualTo(RocksTransfer.PIECE);
        assertThat(asked[0]).as("asked again before the second piece").isEqualTo(2);
        assertThat(store.count()).isEqualTo(25_000 - RocksTransfer.PIECE);
        assertThat(store.get(Keys.utf8(String.format("key-%06d", RocksTransfer.PIECE - 1)))).isNull();
        assertThat(store.get(Keys.utf8(String.format("key-%06d", RocksTransfer.PIECE)))).hasSize(1000);
        assertThat(store.deleteRange(Keys.utf8("key-"), null)).as("the rest, to the end")
                .isEqualTo(25_000 - RocksTransfer.PIECE);
        assertThat(store.count()).isZero();
        assertThat(store.scan(new byte[0], null, 10, 1 << 20).entries()).isEmpty();
    }

    @Test
    void aReclaimWaitsForTheSnapshotThatPinsTheDeletedSpan() throws Exception {
        fill(20_000);
        long full = tableBytes();
        byte[] low = Keys.utf8("key-005000");
        StoreSnapshot copying = store.snapshot(); // a copy of another range under way
        store.deleteRange(low, null);
        store.makeDurable();
        java.util.concurrent.CompletableFuture<Void> reclaim = java.util.concurrent.CompletableFuture.runAsync(
                () -> store.reclaim(low, null));
        org.awaitility.Awaitility.await().during(java.time.Duration.ofMillis(300))
                .atMost(java.time.Duration.ofSeconds(5)).until(() -> !reclaim.isDone());
        copying.close();
        reclaim.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(tableBytes()).as("compacted once the snapshot closed").isLessThan(full * 4 / 10);
    }

    @Test
    void aReclaimOnAClosedStoreFailsClearlyInsteadOfCrashing() {
        store.close();
        assertThatThrownBy(() -> store.reclaim(Keys.utf8("a"), null)).isInstanceOf(StoreException.class)
                .hasMessageContaining("closing");
        store = open();
    }

    private void fill(int streams) {
        java.util.Random random = new java.util.Random(2);
        for (int i = 0; i < streams; i++) {
            byte[] value = new byte[1000];
            random.nextBytes(value); // incompressible
            store.put(Keys.utf8(String.format("key-%06d", i)), value);
        }
        ((RocksDbStore) store).flush();
    }

    private long tableBytes() throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir.resolve("db"))) {
            return files.filter(f -> f.toString().endsWith(".sst")).mapToLong(f -> f.toFile().length()).sum();
        }
    }
}
