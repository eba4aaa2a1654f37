package org.autodisk.node.wal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's single writer thread. Group commit: it takes every append queued so far, writes them, fsyncs
 * each touched file once, completes their futures, and goes back for whatever queued up meanwhile. It never
 * waits for more appends to arrive and is never interrupted (an interrupt would close its file channels).
 */
final class LogWriter {

    private static final Logger LOG = LoggerFactory.getLogger(LogWriter.class);

    private static final PendingAppend STOP = new PendingAppend("", new long[0], List.of(),
            new CompletableFuture<>());

    private final String id;
    private final Path dir;
    private final SegmentOptions options;
    private final Map<String, StreamLog> streams;
    private final LogCounters counters;
    private final Map<String, StreamWriter> writers = new HashMap<>();
    private final BlockingQueue<PendingAppend> queue = new LinkedBlockingQueue<>();
    private final Thread thread;

    LogWriter(String id, Path dir, SegmentOptions options, Map<String, StreamLog> streams, LogCounters counters) {
        this.id = id;
        this.dir = dir;
        this.options = options;
        this.streams = streams;
        this.counters = counters;
        this.thread = Thread.ofPlatform().name(id + "-log-writer").daemon(true).unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    void submit(PendingAppend append) {
        queue.add(append);
    }

    /** Lets the writer finish what is queued, then waits for it to stop. */
    void stopAndJoin() {
        queue.add(STOP);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        List<PendingAppend> batch = new ArrayList<>();
        boolean stop = false;
        while (!stop) {
            batch.add(take());
            queue.drainTo(batch);
            stop = batch.removeIf(p -> p == STOP);
            if (!batch.isEmpty()) {
                commitSafely(batch);
            }
            batch.clear();
        }
        writers.values().forEach(w -> {
            if (w.active() != null) {
                Batch.closeQuietly(id, w.active());
            }
        });
    }

    private PendingAppend take() {
        while (true) {
            try {
                return queue.take();
            } catch (InterruptedException e) {
                LOG.warn("{}: log writer interrupted; it stops only when the store is closed", id);
            }
        }
    }

    private void commitSafely(List<PendingAppend> appends) {
        try {
            commit(appends);
        } catch (RuntimeException e) {
            LOG.error("{}: log writer failed on a batch of {} appends", id, appends.size(), e);
            LogStoreException failure = new LogStoreException(id + ": log writer failed: " + e, e);
            appends.forEach(p -> p.future().completeExceptionally(failure));
            writers.values().forEach(StreamWriter::reset);
        }
    }

    private void commit(List<PendingAppend> appends) {
        Batch batch = new Batch(id, dir, options, this::writerFor);
        appends.forEach(batch::add);
        if (batch.hasWrites()) {
            try {
                batch.write(options.faultHook());
                batch.sync(options.faultHook(), counters);
            } catch (IOException | RuntimeException e) {
                batch.rollback(e);
                return;
            }
        }
        batch.publish(streams, counters);
    }

    private StreamWriter writerFor(String stream) {
        return writers.computeIfAbsent(stream, name -> {
            StreamLog log = streams.get(name);
            return new StreamWriter(log != null ? log : new StreamLog(id, name, dir.resolve(name), List.of()));
        });
    }
}
