package org.autodisk.node.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract without RocksDB's own WAL, and what survives a crash then: exactly the last flush. */
class RocksDbStoreWithoutWalTest extends LocalStoreContract {

    @TempDir
    Path dir;

    @Override
    protected LocalStore open() {
        return LocalStores.rocksDbWithoutWal(dir.resolve("db"));
    }

    @Test
    void aFinishedBulkLoadSurvivesACrashWithoutAFlushAndAnUnfinishedOneLeavesNoFile() throws Exception {
        try (BulkLoad load = store.bulkLoad()) {
            load.add(List.of(new KeyValue(Keys.utf8("m1"), Keys.utf8("1")), new KeyValue(Keys.utf8("m2"),
                    Keys.utf8("2"))));
            load.finish(java.util.Map.of());
            load.add(List.of(new KeyValue(Keys.utf8("m3"), Keys.utf8("3"))));
            ((RocksDbStore) store).closeWithoutFlush();
        }
        java.nio.file.Files.writeString(dir.resolve("db").resolve("bulk").resolve("left-over.sst"), "x");
        store = open();
        assertThat(store.get(Keys.utf8("m1"))).as("ingested files are durable by themselves").isNotNull();
        assertThat(store.get(Keys.utf8("m3"))).isNull();
        assertThat(store.count()).isEqualTo(2);
        try (var files = java.nio.file.Files.list(dir.resolve("db").resolve("bulk"))) {
            assertThat(files.toList()).as("unfinished loads are removed at open").isEmpty();
        }
    }

    @Test
    void aCrashKeepsEachLedgersPositionOfTheLastFlush() {
        store.applyLedger(7, records(1, 60));
        store.applyLedger(9, records(1, 10));
        ((RocksDbStore) store).flush();
        await().until(() -> store.durableEntry(7), e -> e == 60);
        store.applyLedger(7, records(61, 80));
        assertThat(store.durableEntry(9)).isEqualTo(10);
        assertThat(store.durableEntry(7)).isEqualTo(60);
        assertThat(store.appliedEntry(7)).isEqualTo(80);

        ((RocksDbStore) store).closeWithoutFlush();
        store = open();

        assertThat(store.appliedEntry(7)).isEqualTo(60);
        assertThat(store.appliedEntry(9)).isEqualTo(10);
        assertThat(store.get(key(61))).as("to be replayed from ledger 7").isNull();
        store.applyLedger(7, records(1, 80));
        assertThat(store.appliedEntry(7)).isEqualTo(80);
        assertThat(store.count()).isEqualTo(80);
    }

    @Test
    void withItsOwnWalTheStoreKeepsEveryApplyAcrossACrash() {
        store.close();
        store = LocalStores.rocksDb(dir.resolve("journaled"), false);
        store.applyLedger(3, records(1, 150));
        assertThat(store.durableEntry(3)).isEqualTo(150);
        ((RocksDbStore) store).closeWithoutFlush();
        store = LocalStores.rocksDb(dir.resolve("journaled"), false);
        assertThat(store.appliedEntry(3)).isEqualTo(150);
        assertThat(store.count()).isEqualTo(150);
    }

    @Test
    void aGracefulCloseFlushesEverything() {
        store.applyLedger(3, records(1, 40));
        store.close();
        store = open();
        assertThat(store.appliedEntry(3)).isEqualTo(40);
        assertThat(store.durableEntry(3)).isEqualTo(40);
        assertThat(store.get(key(40))).isEqualTo(value(40));
    }

    private static List<LogRecord> records(long from, long to) {
        List<LogRecord> out = new ArrayList<>();
        for (long lsn = from; lsn <= to; lsn++) {
            out.add(new LogRecord(0, 1, lsn, LogRecord.PUT, key(lsn), value(lsn)));
        }
        return out;
    }

    private static byte[] key(long lsn) {
        return Keys.utf8(String.format("k%06d", lsn));
    }

    private static byte[] value(long lsn) {
        return Keys.utf8("v" + lsn);
    }
}
