package org.autodisk.node.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BooleanSupplier;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.protocol.TraverseResult;

/** A {@link LocalStore} in a sorted concurrent map. */
final class InMemoryStore implements LocalStore {

    private final ConcurrentSkipListMap<byte[], byte[]> map = new ConcurrentSkipListMap<>(Keys.ORDER);
    private final Map<Long, Long> ledgers = new java.util.HashMap<>();

    @Override
    public boolean put(byte[] key, byte[] value) {
        return map.put(key.clone(), value.clone()) == null;
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] v = map.get(key);
        return v == null ? null : v.clone();
    }

    @Override
    public boolean contains(byte[] key) {
        return map.containsKey(key);
    }

    @Override
    public boolean delete(byte[] key) {
        return map.remove(key) != null;
    }

    @Override
    public TraverseResult scan(byte[] from, byte[] toExclusive, int limit, long byteBudget) {
        NavigableMap<byte[], byte[]> view = toExclusive == null ? map.tailMap(from, true)
                : map.subMap(from, true, toExclusive, false);
        List<KeyValue> out = new ArrayList<>();
        long bytes = 0;
        for (Map.Entry<byte[], byte[]> e : view.entrySet()) {
            if (out.size() >= limit) {
                break;
            }
            if (!out.isEmpty() && bytes >= byteBudget) {
                return new TraverseResult(out, e.getKey().clone());
            }
            out.add(new KeyValue(e.getKey().clone(), e.getValue().clone()));
            bytes += e.getKey().length + e.getValue().length;
        }
        return new TraverseResult(out, null);
    }

    @Override
    public RangeUsage usage(byte[] low, byte[] high) {
        long keys = 0;
        long bytes = 0;
        for (Map.Entry<byte[], byte[]> e : view(low, high).entrySet()) {
            keys++;
            bytes += e.getKey().length + e.getValue().length;
        }
        return new RangeUsage(keys, bytes);
    }

    @Override
    public byte[] splitKey(byte[] low, byte[] high) {
        NavigableMap<byte[], byte[]> view = view(low, high);
        long target = Math.min(view.size() / 2, MAX_SPLIT_OFFSET);
        if (target == 0) {
            return null;
        }
        long i = 0;
        for (byte[] key : view.keySet()) {
            if (i++ == target) {
                return key.clone();
            }
        }
        return null;
    }

    private NavigableMap<byte[], byte[]> view(byte[] low, byte[] high) {
        return high == null ? map.tailMap(low, true) : map.subMap(low, true, high, false);
    }

    @Override
    public synchronized boolean[] applyLedger(long ledgerId, List<LogRecord> entries) {
        long done = ledgers.getOrDefault(ledgerId, 0L);
        boolean[] changed = new boolean[entries.size()];
        for (int i = 0; i < changed.length; i++) {
            LogRecord e = entries.get(i);
            if (e.lsn() > done) {
                changed[i] = e.op() == LogRecord.PUT ? put(e.key(), e.value()) : delete(e.key());
                done = e.lsn();
            }
        }
        ledgers.put(ledgerId, done);
        return changed;
    }

    @Override
    public synchronized long appliedEntry(long ledgerId) {
        return ledgers.getOrDefault(ledgerId, 0L);
    }

    /** Nothing in memory survives a crash: the log nodes keep every entry. */
    @Override
    public long durableEntry(long ledgerId) {
        return 0;
    }

    /** Positions first, then a weakly consistent view: the streams reflect at least those positions. */
    @Override
    public StoreSnapshot snapshot() {
        Map<Long, Long> at;
        synchronized (this) {
            at = Map.copyOf(ledgers);
        }
        return new StoreSnapshot() {
            @Override
            public Chunk read(byte[] from, byte[] toExclusive, long byteBudget) {
                List<KeyValue> out = new ArrayList<>();
                long bytes = 0;
                for (Map.Entry<byte[], byte[]> e : view(from, toExclusive).entrySet()) {
                    long size = e.getKey().length + e.getValue().length;
                    if (!out.isEmpty() && bytes + size + (out.size() + 1L) * STREAM_OVERHEAD > byteBudget) {
                        return new Chunk(out, e.getKey().clone(), bytes);
                    }
                    out.add(new KeyValue(e.getKey().clone(), e.getValue().clone()));
                    bytes += size;
                }
                return new Chunk(out, null, bytes);
            }

            @Override
            public long appliedEntry(long ledgerId) {
                return at.getOrDefault(ledgerId, 0L);
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public synchronized long ingest(List<KeyValue> streams, Map<Long, Long> positions) {
        long created = 0;
        for (KeyValue kv : streams) {
            created += put(kv.key(), kv.value()) ? 1 : 0;
        }
        positions.forEach((ledger, entry) -> ledgers.merge(ledger, entry, Math::max));
        return created;
    }

    @Override
    public synchronized long deleteRangeIf(byte[] low, byte[] high, BooleanSupplier condition) {
        if (!condition.getAsBoolean()) {
            return 0;
        }
        NavigableMap<byte[], byte[]> doomed = view(low, high);
        long n = doomed.size();
        doomed.clear();
        return n;
    }

    /** Nothing in memory survives a crash. */
    @Override
    public void makeDurable() {
    }

    @Override
    public long count() {
        return map.size();
    }

    @Override
    public String describe() {
        return "memory";
    }

    @Override
    public void close() {
        map.clear();
    }
}
