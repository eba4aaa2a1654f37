package org.autodisk.node.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.protocol.TraverseResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The behaviour every {@link LocalStore} implementation must have. */
abstract class LocalStoreContract {

    protected LocalStore store;

    protected abstract LocalStore open();

    /** Whether applied ledger entries tell which changes were made; a backup copy answers every one as made. */
    protected boolean tellsChanges() {
        return true;
    }

    private boolean[] changes(boolean[] told, boolean[] blind) {
        return tellsChanges() ? told : blind;
    }

    @BeforeEach
    void setUp() {
        store = open();
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    private static byte[] k(String s) {
        return Keys.utf8(s);
    }

    @Test
    void putReportsCreateVersusReplaceAndCountsExactly() {
        assertThat(store.put(k("a"), k("1"))).isTrue();
        assertThat(store.put(k("a"), k("2"))).isFalse();
        assertThat(store.put(k("b"), new byte[0])).isTrue();
        assertThat(store.count()).isEqualTo(2);
        assertThat(store.get(k("a"))).isEqualTo(k("2"));
        assertThat(store.get(k("b"))).isEmpty();
        assertThat(store.get(k("c"))).isNull();
    }

    @Test
    void deleteReportsWhetherTheStreamExisted() {
        store.put(k("a"), k("1"));
        assertThat(store.delete(k("a"))).isTrue();
        assertThat(store.delete(k("a"))).isFalse();
        assertThat(store.count()).isZero();
        assertThat(store.get(k("a"))).isNull();
    }

    @Test
    void scanIsOrderedUnsignedBoundedAndLimited() {
        byte[][] keys = {{0x01}, {0x7f}, {(byte) 0x80}, {(byte) 0xff}, {(byte) 0xff, 0x00}};
        for (byte[] key : keys) {
            store.put(key, key);
        }
        TraverseResult all = store.scan(new byte[0], null, 100, Long.MAX_VALUE);
        assertThat(all.entries()).extracting(KeyValue::key).containsExactly(keys);
        assertThat(all.resumeKey()).isNull();
        TraverseResult mid = store.scan(new byte[] {0x7f}, new byte[] {(byte) 0xff}, 100, Long.MAX_VALUE);
        assertThat(mid.entries()).extracting(KeyValue::key).containsExactly(keys[1], keys[2]);
        assertThat(store.scan(new byte[0], null, 2, Long.MAX_VALUE).entries()).hasSize(2);
    }

    @Test
    void scanStopsAtTheByteBudgetAndSaysWhereToResume() {
        for (int i = 0; i < 10; i++) {
            store.put(k("k" + i), new byte[100]);
        }
        TraverseResult page = store.scan(new byte[0], null, 100, 250);
        assertThat(page.entries()).hasSize(3);
        assertThat(page.resumeKey()).isEqualTo(k("k3"));
        TraverseResult one = store.scan(new byte[0], null, 100, 1);
        assertThat(one.entries()).hasSize(1);
        List<KeyValue> rest = store.scan(page.resumeKey(), null, 100, Long.MAX_VALUE).entries();
        assertThat(rest).hasSize(7);
    }

    @Test
    void applyingALedgerChangesDataAndRecordsItsAppliedEntry() {
        assertThat(store.appliedEntry(2)).isZero();
        assertThat(store.applyLedger(2, List.of(new LogRecord(0, 1, 1, LogRecord.PUT, k("a"), k("1")),
                new LogRecord(0, 1, 2, LogRecord.PUT, k("a"), k("2")),
                new LogRecord(0, 1, 3, LogRecord.DELETE, k("b"), new byte[0]),
                new LogRecord(0, 1, 4, LogRecord.PUT, k("b"), k("3")),
                new LogRecord(0, 1, 5, LogRecord.DELETE, k("b"), new byte[0])))).containsExactly(
                        changes(new boolean[] {true, false, false, true, true}, new boolean[] {true, true, true, true,
                            true}));
        assertThat(store.get(k("a"))).isEqualTo(k("2"));
        assertThat(store.get(k("b"))).isNull();
        assertThat(store.count()).isEqualTo(1);
        assertThat(store.appliedEntry(2)).isEqualTo(5);
    }

    @Test
    void aLedgerIsAppliedOnceEachEntryEvenWhenAReplayOverlapsIt() {
        LogRecord a1 = new LogRecord(0, 1, 1, LogRecord.PUT, k("a"), k("1"));
        LogRecord a2 = new LogRecord(0, 1, 2, LogRecord.PUT, k("a"), k("2"));
        LogRecord b3 = new LogRecord(0, 1, 3, LogRecord.PUT, k("b"), k("3"));
        assertThat(store.applyLedger(4, List.of(a1, a2))).containsExactly(changes(new boolean[] {true, false},
                new boolean[] {true, true}));
        assertThat(store.applyLedger(4, List.of(a1, a2, b3))).as("1 and 2 are skipped").containsExactly(false,
                false, true);
        store.delete(k("a"));
        assertThat(store.applyLedger(4, List.of(a1))).as("an old entry never comes back").containsExactly(false);
        assertThat(store.get(k("a"))).isNull();
        assertThat(store.applyLedger(5, List.of(a1))).as("another ledger").containsExactly(true);
        assertThat(store.appliedEntry(4)).isEqualTo(3);
        assertThat(store.appliedEntry(5)).isEqualTo(1);
        assertThat(store.appliedEntry(6)).isZero();
        assertThat(store.durableEntry(4)).isLessThanOrEqualTo(3);
        assertThat(store.count()).isEqualTo(2);
    }

    @Test
    void storedBytesAreNotAliasedWithTheCaller() {
        byte[] key = k("a");
        byte[] value = k("v");
        store.put(key, value);
        value[0] = 'x';
        key[0] = 'z';
        assertThat(store.get(k("a"))).isEqualTo(k("v"));
    }

    @Test
    void usageCountsTheKeysAndBytesOfOneRangeOnly() {
        for (int i = 0; i < 10_000; i++) {
            store.put(k(String.format("k%05d", i)), new byte[10]);
        }
        store.put(k("z"), new byte[100]);
        assertThat(store.usage(k("k01000"), k("k03000"))).isEqualTo(new RangeUsage(2000, 2000 * 16));
        assertThat(store.usage(k("k09999"), null)).isEqualTo(new RangeUsage(2, 16 + 101));
        assertThat(store.usage(k("a"), k("b"))).isEqualTo(new RangeUsage(0, 0));
    }

    @Test
    void theSplitKeyHalvesTheStreamsAndIsAboveTheLowKey() {
        assertThat(store.splitKey(new byte[0], null)).isNull();
        store.put(k("m"), k("1"));
        assertThat(store.splitKey(new byte[0], null)).isNull();
        for (int i = 0; i < 9_999; i++) {
            store.put(k(String.format("k%05d", i)), k("v"));
        }
        assertThat(store.splitKey(k("k"), k("l"))).isEqualTo(k("k04999"));
        assertThat(store.splitKey(k("k09998"), null)).isEqualTo(k("m"));
    }

    @Test
    void aSnapshotKeepsItsStreamsAndPositionsWhileTheStoreChanges() {
        store.applyLedger(7, List.of(new LogRecord(0, 1, 1, LogRecord.PUT, k("b"), k("1")),
                new LogRecord(0, 1, 2, LogRecord.PUT, k("c"), k("2"))));
        try (StoreSnapshot snap = store.snapshot()) {
            store.applyLedger(7, List.of(new LogRecord(0, 1, 3, LogRecord.PUT, k("b"), k("changed")),
                    new LogRecord(0, 1, 4, LogRecord.PUT, k("d"), k("4"))));
            assertThat(snap.appliedEntry(7)).isLessThanOrEqualTo(2);
            StoreSnapshot.Chunk all = snap.read(k("a"), k("z"), 1 << 20);
            if (!(store instanceof InMemoryStore)) {
                assertThat(all.streams()).extracting(kv -> Keys.render(kv.key()) + "=" + Keys.render(kv.value()))
                        .containsExactly("b=1", "c=2");
            }
            assertThat(all.next()).isNull();
            assertThat(store.appliedEntry(7)).isEqualTo(4);
        }
    }

    @Test
    void aSnapshotChunkStopsBeforeTheStreamThatWouldPassTheBudgetButAlwaysHoldsOne() {
        store.put(k("a"), new byte[100]);
        store.put(k("b"), new byte[5000]);
        store.put(k("c"), new byte[10]);
        try (StoreSnapshot snap = store.snapshot()) {
            StoreSnapshot.Chunk first = snap.read(new byte[0], null, 1000);
            assertThat(first.streams()).hasSize(1);
            assertThat(first.next()).isEqualTo(k("b"));
            StoreSnapshot.Chunk big = snap.read(first.next(), null, 1000);
            assertThat(big.streams()).as("a stream larger than the budget goes alone").hasSize(1);
            assertThat(big.bytes()).isEqualTo(5001);
            StoreSnapshot.Chunk last = snap.read(big.next(), k("d"), 1000);
            assertThat(last.streams()).extracting(kv -> Keys.render(kv.key())).containsExactly("c");
            assertThat(last.next()).isNull();
        }
    }

    @Test
    void ingestedStreamsAreCountedAndRaiseLedgerPositionsButNeverLowerThem() {
        store.put(k("a"), k("old"));
        store.applyLedger(3, List.of(new LogRecord(0, 1, 9, LogRecord.PUT, k("z"), k("9"))));
        long created = store.ingest(List.of(new KeyValue(k("a"), k("new")), new KeyValue(k("b"), k("2"))),
                Map.of(3L, 5L, 4L, 12L));
        assertThat(created).isEqualTo(1);
        assertThat(store.count()).isEqualTo(3);
        assertThat(store.get(k("a"))).isEqualTo(k("new"));
        assertThat(store.appliedEntry(3)).as("never lowered").isEqualTo(9);
        assertThat(store.appliedEntry(4)).isEqualTo(12);
        store.makeDurable();
    }

    @Test
    void aBulkLoadIsInvisibleUntilFinishedThenCountedLikeAnIngestAndWhatIsNotFinishedIsDropped() {
        store.put(k("b"), k("old"));
        try (BulkLoad load = store.bulkLoad()) {
            assertThat(load.pending()).isFalse();
            load.add(List.of(new KeyValue(k("a"), k("1")), new KeyValue(k("b"), k("2"))));
            load.add(List.of(new KeyValue(k("c"), k("3"))));
            assertThat(load.pending()).isTrue();
            assertThat(store.get(k("a"))).as("not visible before the finish").isNull();
            assertThat(load.finish(Map.of(5L, 7L))).as("b was there").isEqualTo(2);
            assertThat(load.pending()).isFalse();
            assertThat(store.count()).isEqualTo(3);
            assertThat(store.get(k("b"))).isEqualTo(k("2"));
            assertThat(store.appliedEntry(5)).isEqualTo(7);
            load.add(List.of(new KeyValue(k("d"), k("4"))));
            assertThat(load.finish(Map.of())).as("a second stretch").isEqualTo(1);
            load.add(List.of(new KeyValue(k("e"), k("5"))));
        }
        assertThat(store.get(k("e"))).as("dropped at close").isNull();
        assertThat(store.count()).isEqualTo(4);
        assertThat(store.scan(new byte[0], null, 10, 1 << 20).entries()).hasSize(4);
    }

    @Test
    void deleteRangeRemovesExactlyTheRangeAndKeepsTheCountExact() {
        for (String key : List.of("a", "b", "b1", "c", "d")) {
            store.put(k(key), k(key));
        }
        assertThat(store.deleteRange(k("b"), k("c"))).isEqualTo(2);
        assertThat(store.count()).isEqualTo(3);
        assertThat(store.get(k("a"))).isNotNull();
        assertThat(store.get(k("b1"))).isNull();
        assertThat(store.get(k("c"))).isNotNull();
        assertThat(store.deleteRange(k("c"), null)).as("to the end").isEqualTo(2);
        assertThat(store.count()).isEqualTo(1);
        assertThat(store.scan(new byte[0], null, 10, 1 << 20).entries()).hasSize(1);
        assertThat(store.deleteRange(k("x"), null)).isZero();
    }

    @Test
    void deleteRangeIfDecidesUnderTheLockThatLedgerAppliesTake() throws InterruptedException {
        for (String key : List.of("a", "b", "c")) {
            store.put(k(key), k(key));
        }
        assertThat(store.deleteRangeIf(k("b"), null, () -> false)).as("the condition does not hold").isZero();
        assertThat(store.count()).isEqualTo(3);
        Thread[] apply = new Thread[1];
        long n = store.deleteRangeIf(k("b"), null, () -> {
            // an apply that starts while the condition is asked waits until the deletion is done
            apply[0] = Thread.ofPlatform().start(() -> store.applyLedger(9, List.of(new LogRecord(0, 1, 1,
                    LogRecord.PUT, k("b2"), k("x")))));
            try {
                apply[0].join(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        });
        apply[0].join();
        assertThat(n).isEqualTo(2);
        assertThat(store.get(k("b2"))).as("applied after the deletion").isNotNull();
        assertThat(store.get(k("c"))).isNull();
    }
}
