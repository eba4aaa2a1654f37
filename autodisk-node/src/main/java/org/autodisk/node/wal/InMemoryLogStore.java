package org.autodisk.node.wal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.autodisk.node.wire.LogRecord;

/**
 * A {@link LogStore} in memory with the segment store's semantics but no durability: every append is its own
 * batch, completed at once; no fsync is counted. Records are kept encoded, so callers never share arrays.
 */
final class InMemoryLogStore implements LogStore {

    private final Map<String, MemStream> streams = new ConcurrentHashMap<>();
    private final LogCounters counters = new LogCounters();
    private volatile boolean closed;

    @Override
    public CompletableFuture<Long> append(String stream, List<LogRecord> records) {
        counters.countAppend();
        String problem = Appends.problem(stream, records);
        if (problem != null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("memory: " + problem));
        }
        if (closed) {
            return CompletableFuture.failedFuture(new LogStoreException("memory: log store is closed"));
        }
        if (records.isEmpty()) {
            return CompletableFuture.completedFuture(lastLsn(stream));
        }
        MemStream s = streams.computeIfAbsent(stream, name -> new MemStream());
        synchronized (s) {
            String order = Appends.orderProblem(stream, records.get(0).lsn(), s.lastLsn());
            if (order != null) {
                return CompletableFuture.failedFuture(new IllegalArgumentException("memory: " + order));
            }
            long bytes = 0;
            for (LogRecord r : records) {
                s.records.put(r.lsn(), r.encode());
                bytes += Frames.size(r);
            }
            counters.countBatch(records.size(), bytes);
            return CompletableFuture.completedFuture(s.lastLsn());
        }
    }

    @Override
    public List<LogRecord> read(String stream, long fromLsnInclusive, int maxRecords, long maxBytes) {
        MemStream s = stream(stream);
        List<LogRecord> out = new ArrayList<>();
        if (s == null) {
            return out;
        }
        long bytes = 0;
        synchronized (s) {
            for (byte[] encoded : s.records.tailMap(fromLsnInclusive, true).values()) {
                if (out.size() >= maxRecords || !out.isEmpty() && bytes + encoded.length > maxBytes) {
                    break;
                }
                out.add(LogRecord.decode(encoded, 0));
                bytes += encoded.length;
            }
        }
        return out;
    }

    @Override
    public long lastLsn(String stream) {
        MemStream s = stream(stream);
        if (s == null) {
            return 0;
        }
        synchronized (s) {
            return s.lastLsn();
        }
    }

    @Override
    public long firstLsn(String stream) {
        MemStream s = stream(stream);
        if (s == null) {
            return 0;
        }
        synchronized (s) {
            return s.records.isEmpty() ? 0 : s.records.firstKey();
        }
    }

    @Override
    public Set<String> streams() {
        ensureOpen();
        return Set.copyOf(streams.keySet());
    }

    @Override
    public void truncateBelow(String stream, long lsn) {
        MemStream s = stream(stream);
        if (s == null) {
            return;
        }
        synchronized (s) {
            s.records.headMap(Math.min(lsn, s.lastLsn()), false).clear();
        }
    }

    @Override
    public LogStats stats() {
        return counters.snapshot();
    }

    @Override
    public void close() {
        closed = true;
    }

    private MemStream stream(String stream) {
        ensureOpen();
        return stream == null ? null : streams.get(stream);
    }

    private void ensureOpen() {
        if (closed) {
            throw new LogStoreException("memory: log store is closed");
        }
    }

    /** One stream's records by LSN, encoded; guarded by its own monitor. */
    private static final class MemStream {

        private final NavigableMap<Long, byte[]> records = new TreeMap<>();

        long lastLsn() {
            return records.isEmpty() ? 0 : records.lastKey();
        }
    }
}
