package org.autodisk.node.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.autodisk.node.wal.Recs.append;
import static org.autodisk.node.wal.Recs.firstLsnOf;
import static org.autodisk.node.wal.Recs.hex;
import static org.autodisk.node.wal.Recs.lsns;
import static org.autodisk.node.wal.Recs.range;
import static org.autodisk.node.wal.Recs.readAll;
import static org.autodisk.node.wal.Recs.rec;
import static org.autodisk.node.wal.Recs.recs;
import static org.autodisk.node.wal.Recs.segmentFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Segment-file specifics: reopen, rolling, truncation of whole segments, the directory lock. */
class SegmentLogStoreTest {

    private static final SegmentOptions SMALL = SegmentOptions.defaults().withSegmentBytes(1024);

    @TempDir
    Path dir;

    private LogStore open(SegmentOptions options) {
        return LogStore.segments(dir, "l1", options);
    }

    @Test
    void reopenServesTheSameRecordsAndLsns() {
        try (LogStore store = open(SMALL)) {
            append(store, "d1", recs(1, 30));
            append(store, "d2", recs(7, 9));
            store.truncateBelow("d1", 25);
        }
        try (LogStore store = open(SMALL)) {
            assertThat(store.streams()).containsExactlyInAnyOrder("d1", "d2");
            long first = store.firstLsn("d1");
            assertThat(first).isGreaterThan(1).isLessThanOrEqualTo(25);
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(first, 30)));
            assertThat(store.lastLsn("d1")).isEqualTo(30);
            assertThat(hex(readAll(store, "d2"))).isEqualTo(hex(recs(7, 9)));
            assertThat(store.firstLsn("d2")).isEqualTo(7);
            assertThat(store.lastLsn("d2")).isEqualTo(9);
            assertThat(append(store, "d2", List.of(rec(10)))).isEqualTo(10);
        }
        try (LogStore store = open(SMALL)) {
            assertThat(lsns(readAll(store, "d2"))).isEqualTo(range(7, 10));
        }
    }

    @Test
    void segmentsRollAtTheSizeAndReadsCrossThem() throws IOException {
        int frame = 4 + rec(1).encodedSize();
        try (LogStore store = open(SMALL)) {
            long lsn = 1;
            for (int batch = 1; lsn <= 100; batch = batch % 7 + 1) {
                long last = Math.min(100, lsn + batch - 1);
                append(store, "d1", recs(lsn, last));
                lsn = last + 1;
            }
            List<Path> files = segmentFiles(dir, "d1");
            int perSegment = 1024 / frame;
            assertThat(files).hasSize((100 + perSegment - 1) / perSegment);
            for (int i = 0; i < files.size(); i++) {
                assertThat(firstLsnOf(files.get(i))).isEqualTo(1 + (long) i * perSegment);
                assertThat(Files.size(files.get(i))).isLessThanOrEqualTo(1024);
            }
            assertThat(hex(store.read("d1", perSegment - 2, 6, Long.MAX_VALUE)))
                    .isEqualTo(hex(recs(perSegment - 2, perSegment + 3)));
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, 100)));
        }
        try (LogStore store = open(SMALL)) {
            assertThat(hex(store.read("d1", 50, 1000, Long.MAX_VALUE))).isEqualTo(hex(recs(50, 100)));
        }
    }

    @Test
    void aRecordLargerThanASegmentGetsOneOfItsOwn() throws IOException {
        try (LogStore store = open(SMALL)) {
            append(store, "d1", recs(1, 2));
            LogRecord big = rec(3, "x".repeat(3000));
            append(store, "d1", List.of(big, rec(4)));
            assertThat(segmentFiles(dir, "d1")).extracting(Recs::firstLsnOf).containsExactly(1L, 3L, 4L);
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(List.of(rec(1), rec(2), big, rec(4))));
        }
    }

    @Test
    void truncateBelowDropsWholeOldSegmentsAndReadsStillWork() throws IOException {
        try (LogStore store = open(SMALL)) {
            for (long lsn = 1; lsn <= 100; lsn += 10) {
                append(store, "d1", recs(lsn, lsn + 9));
            }
            List<Path> before = segmentFiles(dir, "d1");
            store.truncateBelow("d1", 50);
            List<Path> after = segmentFiles(dir, "d1");
            long first = store.firstLsn("d1");
            assertThat(after).hasSizeLessThan(before.size());
            assertThat(firstLsnOf(after.get(0))).isEqualTo(first).isLessThanOrEqualTo(50);
            assertThat(before.subList(before.size() - after.size(), before.size())).isEqualTo(after);
            assertThat(after.size() > 1 ? firstLsnOf(after.get(1)) : Long.MAX_VALUE).isGreaterThan(50);
            assertThat(lsns(store.read("d1", 1, 5, Long.MAX_VALUE))).isEqualTo(range(first, first + 4));
            assertThat(hex(store.read("d1", 50, 1000, Long.MAX_VALUE))).isEqualTo(hex(recs(50, 100)));
            store.truncateBelow("d1", Long.MAX_VALUE);
            assertThat(segmentFiles(dir, "d1")).containsExactly(before.get(before.size() - 1));
            assertThat(store.lastLsn("d1")).isEqualTo(100);
        }
    }

    @Test
    void readsFromTheMiddleOfALargeSegmentUseTheSparseIndex() {
        List<LogRecord> records = LongStream.rangeClosed(1, 3000).mapToObj(i -> rec(i, "v".repeat(150))).toList();
        try (LogStore store = open(SegmentOptions.defaults())) {
            for (int i = 0; i < records.size(); i += 500) {
                append(store, "d1", records.subList(i, i + 500));
            }
            assertThat(hex(store.read("d1", 2222, 3, Long.MAX_VALUE))).isEqualTo(hex(records.subList(2221, 2224)));
        }
        try (LogStore store = open(SegmentOptions.defaults())) {
            assertThat(hex(store.read("d1", 1717, 2, Long.MAX_VALUE))).isEqualTo(hex(records.subList(1716, 1718)));
            assertThat(lsns(store.read("d1", 2999, 10, Long.MAX_VALUE))).containsExactly(2999L, 3000L);
        }
    }

    @Test
    void aSecondStoreOnTheSameDirectoryIsRefused() {
        try (LogStore store = open(SMALL)) {
            append(store, "d1", recs(1, 1));
            assertThatThrownBy(() -> open(SMALL)).isInstanceOf(LogStoreException.class)
                    .hasMessageContaining("in use").hasMessageContaining(dir.toString());
        }
    }

    @Test
    void theWriterThreadIsNamedAfterTheStoreAndStopsOnClose() {
        LogStore store = open(SMALL);
        append(store, "d1", recs(1, 1));
        assertThat(writerThreads()).hasSize(1);
        store.close();
        assertThat(writerThreads()).isEmpty();
    }

    private static List<Thread> writerThreads() {
        List<Thread> found = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("l1-log-writer") && t.isAlive()) {
                found.add(t);
            }
        }
        return found;
    }
}
