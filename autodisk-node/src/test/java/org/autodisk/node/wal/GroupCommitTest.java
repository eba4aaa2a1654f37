package org.autodisk.node.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.wal.Recs.append;
import static org.autodisk.node.wal.Recs.hex;
import static org.autodisk.node.wal.Recs.join;
import static org.autodisk.node.wal.Recs.readAll;
import static org.autodisk.node.wal.Recs.rec;
import static org.autodisk.node.wal.Recs.recs;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Group commit: appends that queue up while an fsync runs are written and synced together. */
class GroupCommitTest {

    private static final int THREADS = 4;
    private static final int PER_THREAD = 10;

    @TempDir
    Path dir;

    private final Latch firstSync = new Latch();
    private final AtomicBoolean first = new AtomicBoolean(true);

    private LogStore open() {
        SegmentOptions.FaultHook hook = new SegmentOptions.FaultHook() {
            @Override
            public void beforeSync(Path file) throws IOException {
                if (first.getAndSet(false)) {
                    firstSync.arriveAndWait();
                }
            }
        };
        return LogStore.segments(dir, "l1", SegmentOptions.defaults().withFaultHook(hook));
    }

    @Test
    void appendsQueuedDuringAnFsyncShareTheNextOne() throws Exception {
        try (LogStore store = open()) {
            CompletableFuture<Long> held = store.append("d0", List.of(rec(1)));
            firstSync.awaitArrival();
            List<CompletableFuture<Long>> queued = submitFromThreads(store);
            assertThat(held).isNotDone();
            assertThat(queued).noneMatch(CompletableFuture::isDone);
            assertThat(readAll(store, "d0")).as("written but not yet synced: not served").isEmpty();
            firstSync.open();
            assertThat(join(held)).isEqualTo(1);
            queued.forEach(f -> assertThat(join(f)).isEqualTo(PER_THREAD));
            LogStats stats = store.stats();
            assertThat(stats.appends()).isEqualTo(1 + THREADS * PER_THREAD);
            assertThat(stats.records()).isEqualTo(1 + THREADS * PER_THREAD);
            assertThat(stats.batches()).isEqualTo(2).isLessThan(stats.appends());
            assertThat(stats.fsyncs()).as("one per touched file per batch").isEqualTo(1 + THREADS);
            assertThat(stats.recordsPerFsync()).isGreaterThan(1.0);
            for (int t = 1; t <= THREADS; t++) {
                assertThat(hex(readAll(store, "d" + t))).isEqualTo(hex(recs(1, PER_THREAD)));
            }
        }
    }

    @Test
    void closeMakesQueuedAppendsDurable() throws Exception {
        List<CompletableFuture<Long>> queued;
        try (LogStore store = open()) {
            append(store, "d0", List.of());
            store.append("d0", List.of(rec(1)));
            firstSync.awaitArrival();
            queued = submitFromThreads(store);
            Thread closer = Thread.ofPlatform().start(store::close);
            await().atMost(Duration.ofSeconds(30)).until(() -> !isOpen(store));
            assertThat(queued).noneMatch(CompletableFuture::isDone);
            firstSync.open();
            assertThat(closer.join(Duration.ofSeconds(30))).as("close finished").isTrue();
            assertThat(queued).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        }
        try (LogStore store = open()) {
            for (int t = 1; t <= THREADS; t++) {
                assertThat(hex(readAll(store, "d" + t))).isEqualTo(hex(recs(1, PER_THREAD)));
            }
        }
    }

    private static boolean isOpen(LogStore store) {
        try {
            store.streams();
            return true;
        } catch (LogStoreException e) {
            return false;
        }
    }

    /** Each thread appends LSNs 1..PER_THREAD to its own stream, one record per append. */
    private static List<CompletableFuture<Long>> submitFromThreads(LogStore store) throws InterruptedException {
        List<CompletableFuture<Long>> futures = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 1; t <= THREADS; t++) {
            String stream = "d" + t;
            threads.add(Thread.ofPlatform().start(() -> {
                for (long lsn = 1; lsn <= PER_THREAD; lsn++) {
                    futures.add(store.append(stream, List.of(rec(lsn))));
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return futures;
    }
}
