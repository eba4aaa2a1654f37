package org.autodisk.node.wal;

import java.util.concurrent.atomic.AtomicLong;

/** The live counters behind {@link LogStats}; thread-safe. */
final class LogCounters {

    private final AtomicLong appends = new AtomicLong();
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong fsyncs = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();

    void countAppend() {
        appends.incrementAndGet();
    }

    void countFsync() {
        fsyncs.incrementAndGet();
    }

    void countBatch(long recordCount, long byteCount) {
        batches.incrementAndGet();
        records.addAndGet(recordCount);
        bytes.addAndGet(byteCount);
    }

    LogStats snapshot() {
        return new LogStats(appends.get(), records.get(), bytes.get(), fsyncs.get(), batches.get());
    }
}
