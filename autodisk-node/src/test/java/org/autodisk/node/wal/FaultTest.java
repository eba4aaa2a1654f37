package org.autodisk.node.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.wal.Recs.append;
import static org.autodisk.node.wal.Recs.failure;
import static org.autodisk.node.wal.Recs.hex;
import static org.autodisk.node.wal.Recs.join;
import static org.autodisk.node.wal.Recs.readAll;
import static org.autodisk.node.wal.Recs.rec;
import static org.autodisk.node.wal.Recs.recs;
import static org.autodisk.node.wal.Recs.segmentFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** I/O failures: the batch fails, nothing of it is served (now or after reopen), later appends succeed. */
class FaultTest {

    @TempDir
    Path dir;

    private final AtomicReference<String> failWriteOf = new AtomicReference<>();
    private final AtomicBoolean failSync = new AtomicBoolean();
    private volatile Latch holdSync;

    private LogStore open() {
        SegmentOptions.FaultHook hook = new SegmentOptions.FaultHook() {
            @Override
            public void beforeWrite(String stream) throws IOException {
                if (stream.equals(failWriteOf.get())) {
                    throw new IOException("No space left on device (disk full)");
                }
            }

            @Override
            public void beforeSync(Path file) throws IOException {
                Latch latch = holdSync;
                if (latch != null) {
                    holdSync = null;
                    latch.arriveAndWait();
                }
                if (failSync.getAndSet(false)) {
                    throw new IOException("Input/output error");
                }
            }
        };
        return LogStore.segments(dir, "l1", SegmentOptions.defaults().withSegmentBytes(1024).withFaultHook(hook));
    }

    @Test
    void aFullDiskFailsTheAppendAndALaterAppendSucceeds() throws IOException {
        try (LogStore store = open()) {
            append(store, "d1", recs(1, 3));
            failWriteOf.set("d1");
            Throwable failed = failure(store.append("d1", List.of(rec(4, "lost"), rec(5, "lost"))));
            assertThat(failed).isInstanceOf(LogStoreException.class).hasMessageContaining("disk full")
                    .hasMessageContaining(dir.toString()).hasMessageContaining("writing");
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, 3)));
            assertThat(store.lastLsn("d1")).isEqualTo(3);
            failWriteOf.set(null);
            assertThat(append(store, "d1", recs(4, 5))).isEqualTo(5);
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, 5)));
        }
        try (LogStore store = open()) {
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, 5)));
        }
    }

    @Test
    void aFailedFsyncCutsTheWrittenBytesAndNewSegmentsBack() throws IOException {
        List<LogRecord> lost = new ArrayList<>();
        for (long lsn = 11; lsn <= 40; lsn++) {
            lost.add(rec(lsn, "lost-" + lsn));
        }
        try (LogStore store = open()) {
            append(store, "d1", recs(1, 10));
            List<Path> files = segmentFiles(dir, "d1");
            failSync.set(true);
            Throwable failed = failure(store.append("d1", lost));
            assertThat(failed).isInstanceOf(LogStoreException.class).hasMessageContaining("Input/output error")
                    .hasMessageContaining("fsync of " + files.get(0));
            assertThat(segmentFiles(dir, "d1")).isEqualTo(files);
            assertThat(Files.size(files.get(0))).as("cut back to the durable records").isEqualTo(10L * (4
                    + rec(1).encodedSize()));
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, 10)));
            assertThat(append(store, "d1", recs(11, 12))).isEqualTo(12);
        }
        try (LogStore store = open()) {
            assertThat(hex(readAll(store, "d1"))).isEqualTo(hex(recs(1, 12)));
        }
    }

    @Test
    void aFailureFailsEveryAppendOfItsBatch() throws Exception {
        try (LogStore store = open()) {
            holdSync = new Latch();
            Latch held = holdSync;
            CompletableFuture<Long> first = store.append("d0", List.of(rec(1)));
            held.awaitArrival();
            failWriteOf.set("d2");
            CompletableFuture<Long> other = store.append("d1", recs(1, 2));
            CompletableFuture<Long> full = store.append("d2", recs(1, 2));
            held.open();
            assertThat(join(first)).isEqualTo(1);
            assertThat(failure(other)).isInstanceOf(LogStoreException.class).hasMessageContaining("2 append(s)");
            assertThat(failure(full)).isInstanceOf(LogStoreException.class).hasMessageContaining("disk full");
            assertThat(store.streams()).containsExactly("d0");
            assertThat(readAll(store, "d1")).isEmpty();
            failWriteOf.set(null);
            assertThat(append(store, "d2", recs(1, 2))).isEqualTo(2);
            assertThat(store.stats().batches()).isEqualTo(2);
        }
    }
}
