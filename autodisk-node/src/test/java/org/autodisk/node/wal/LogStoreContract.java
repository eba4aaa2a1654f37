package org.autodisk.node.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.wal.Recs.append;
import static org.autodisk.node.wal.Recs.failure;
import static org.autodisk.node.wal.Recs.hex;
import static org.autodisk.node.wal.Recs.join;
import static org.autodisk.node.wal.Recs.lsns;
import static org.autodisk.node.wal.Recs.range;
import static org.autodisk.node.wal.Recs.readAll;
import static org.autodisk.node.wal.Recs.rec;
import static org.autodisk.node.wal.Recs.recs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The behaviour every {@link LogStore} implementation must have. */
abstract class LogStoreContract {

    protected LogStore store;

    protected abstract LogStore open();

    @BeforeEach
    void setUp() {
        store = open();
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    @Test
    void anEmptyStoreHasNoStreamsAndZeroLsns() {
        assertThat(store.streams()).isEmpty();
        assertThat(store.lastLsn("d1")).isZero();
        assertThat(store.firstLsn("d1")).isZero();
        assertThat(readAll(store, "d1")).isEmpty();
    }

    @Test
    void appendsCompleteWithTheLastLsnAndReadBackInOrder() {
        assertThat(append(store, "d1", recs(1, 3))).isEqualTo(3);
        assertThat(append(store, "d1", List.of(rec(4)))).isEqualTo(4);
        assertThat(append(store, "d1", recs(5, 9))).isEqualTo(9);
        assertThat(hex(readAll(store, "d1"))).containsExactlyElementsOf(hex(recs(1, 9)));
        assertThat(store.firstLsn("d1")).isEqualTo(1);
        assertThat(store.lastLsn("d1")).isEqualTo(9);
        assertThat(store.streams()).containsExactly("d1");
    }

    @Test
    void readsStartAtTheLsnAcrossGapsAndRespectTheLimits() {
        List<LogRecord> even = LongStream.rangeClosed(1, 20).mapToObj(i -> rec(2 * i)).toList();
        append(store, "d1", even);
        assertThat(lsns(store.read("d1", 5, 100, Long.MAX_VALUE))).startsWith(6L, 8L).hasSize(18);
        assertThat(lsns(store.read("d1", 6, 3, Long.MAX_VALUE))).containsExactly(6L, 8L, 10L);
        assertThat(lsns(store.read("d1", 0, 100, 1))).containsExactly(2L);
        int size = rec(2).encodedSize();
        assertThat(lsns(store.read("d1", 0, 100, 2L * size))).containsExactly(2L, 4L);
        assertThat(lsns(store.read("d1", 0, 100, 3L * size - 1))).containsExactly(2L, 4L);
        assertThat(store.read("d1", 0, 0, Long.MAX_VALUE)).isEmpty();
        assertThat(store.read("d1", 41, 100, Long.MAX_VALUE)).isEmpty();
        assertThat(lsns(store.read("d1", 40, 100, Long.MAX_VALUE))).containsExactly(40L);
    }

    @Test
    void anLsnNotAboveTheLastIsRefusedAndNothingIsWritten() {
        append(store, "d1", recs(1, 3));
        assertThat(failure(store.append("d1", List.of(rec(3)))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("first LSN 3 is not greater than the stream's last LSN 3");
        assertThat(failure(store.append("d1", List.of(rec(6), rec(5)))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LSN 5 follows LSN 6");
        assertThat(failure(store.append("d1", List.of(rec(2), rec(7))))).isInstanceOf(IllegalArgumentException.class);
        assertThat(failure(store.append("d1", List.of(rec(0))))).isInstanceOf(IllegalArgumentException.class);
        assertThat(lsns(readAll(store, "d1"))).containsExactly(1L, 2L, 3L);
        assertThat(store.lastLsn("d1")).isEqualTo(3);
        assertThat(append(store, "d1", List.of(rec(4)))).isEqualTo(4);
    }

    @Test
    void queuedAppendsAreCheckedAgainstTheAppendsBeforeThem() {
        CompletableFuture<Long> first = store.append("d1", recs(1, 2));
        CompletableFuture<Long> repeat = store.append("d1", List.of(rec(2)));
        CompletableFuture<Long> next = store.append("d1", List.of(rec(3)));
        assertThat(join(first)).isGreaterThanOrEqualTo(2);
        assertThat(failure(repeat)).isInstanceOf(IllegalArgumentException.class);
        assertThat(join(next)).isEqualTo(3);
        assertThat(lsns(readAll(store, "d1"))).containsExactly(1L, 2L, 3L);
    }

    @Test
    void invalidStreamNamesAreRefused() {
        for (String bad : Arrays.asList(null, "", "..", ".hidden", "a/b", "../d1", "a b")) {
            assertThat(failure(store.append(bad, List.of(rec(1))))).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stream name");
        }
        assertThat(store.streams()).isEmpty();
    }

    @Test
    void streamsAreIndependent() {
        append(store, "d1", recs(1, 5));
        append(store, "d2", recs(100, 102));
        append(store, "d1", recs(6, 7));
        assertThat(store.streams()).containsExactlyInAnyOrder("d1", "d2");
        assertThat(lsns(readAll(store, "d1"))).isEqualTo(range(1, 7));
        assertThat(lsns(readAll(store, "d2"))).isEqualTo(range(100, 102));
        assertThat(store.firstLsn("d2")).isEqualTo(100);
    }

    @Test
    void truncateBelowKeepsEverythingFromTheLsnAndTheLastRecord() {
        for (long lsn = 1; lsn <= 60; lsn++) {
            append(store, "d1", List.of(rec(lsn)));
        }
        store.truncateBelow("d1", 30);
        long first = store.firstLsn("d1");
        assertThat(first).isBetween(1L, 30L);
        assertThat(lsns(readAll(store, "d1"))).isEqualTo(range(first, 60));
        assertThat(hex(store.read("d1", 30, 100, Long.MAX_VALUE))).isEqualTo(hex(recs(30, 60)));
        store.truncateBelow("d1", 1000);
        assertThat(store.lastLsn("d1")).isEqualTo(60);
        assertThat(lsns(readAll(store, "d1"))).contains(60L);
        assertThat(failure(store.append("d1", List.of(rec(60))))).isInstanceOf(IllegalArgumentException.class);
        assertThat(append(store, "d1", List.of(rec(61)))).isEqualTo(61);
        store.truncateBelow("unknown", 5);
    }

    @Test
    void anEmptyAppendReportsTheLastLsn() {
        assertThat(append(store, "d1", List.of())).isZero();
        append(store, "d1", recs(1, 4));
        assertThat(append(store, "d1", List.of())).isEqualTo(4);
    }

    @Test
    void storedBytesAreNotSharedWithTheCaller() {
        LogRecord r = rec(1, "original");
        CompletableFuture<Long> f = store.append("d1", List.of(r));
        String expected = hex(List.of(rec(1, "original"))).get(0);
        r.value()[0] = 'X';
        join(f);
        assertThat(hex(readAll(store, "d1"))).containsExactly(expected);
        readAll(store, "d1").get(0).value()[0] = 'Y';
        assertThat(hex(readAll(store, "d1"))).containsExactly(expected);
    }

    @Test
    void deletesAndEmptyValuesRoundTrip() {
        LogRecord del = new LogRecord(1, 9, 1, LogRecord.DELETE, Recs.bytes("gone"), new byte[0]);
        append(store, "d1", List.of(del));
        assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(List.of(del)));
    }

    @Test
    void statsCountCallsAndRecords() {
        append(store, "d1", recs(1, 3));
        append(store, "d1", recs(4, 5));
        failure(store.append("d1", List.of(rec(1))));
        LogStats stats = store.stats();
        assertThat(stats.appends()).isEqualTo(3);
        assertThat(stats.records()).isEqualTo(5);
        assertThat(stats.bytes()).isEqualTo(recs(1, 5).stream().mapToLong(r -> 4 + r.encodedSize()).sum());
        assertThat(stats.batches()).isBetween(1L, 2L);
    }

    @Test
    void concurrentWritersToTheirOwnStreamsAllLand() throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            String stream = "d" + t;
            threads.add(Thread.ofPlatform().start(() -> {
                List<CompletableFuture<Long>> futures = new ArrayList<>();
                for (long lsn = 1; lsn <= 50; lsn++) {
                    futures.add(store.append(stream, List.of(rec(lsn))));
                }
                futures.forEach(Recs::join);
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int t = 0; t < 4; t++) {
            assertThat(hex(readAll(store, "d" + t))).isEqualTo(hex(recs(1, 50)));
        }
    }

    @Test
    void aClosedStoreRefusesAppends() {
        append(store, "d1", recs(1, 2));
        store.close();
        assertThat(failure(store.append("d1", List.of(rec(3))))).isInstanceOf(LogStoreException.class)
                .hasMessageContaining("closed");
    }
}
