package org.autodisk.node.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.core.protocol.KeyValue;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The migration side of {@link RocksDbStore}: snapshots a copy reads, the copied streams written on the target, and
 * the range deleted once it moved away. Writes hold the store's apply lock, so the stream count stays exact.
 */
final class RocksTransfer {

    private final RocksDB db;
    private final ColumnFamilyHandle meta;
    private final WriteOptions writeOptions;
    private final Object applyLock;
    private final AtomicLong count;
    private final LedgerPositions positions;
    private final Set<RocksSnapshot> open = ConcurrentHashMap.newKeySet();

    RocksTransfer(RocksDB db, ColumnFamilyHandle meta, WriteOptions writeOptions, Object applyLock, AtomicLong count,
            LedgerPositions positions) {
        this.db = db;
        this.meta = meta;
        this.writeOptions = writeOptions;
        this.applyLock = applyLock;
        this.count = count;
        this.positions = positions;
    }

    StoreSnapshot snapshot() {
        RocksSnapshot s = new RocksSnapshot(db.getSnapshot());
        open.add(s);
        return s;
    }

    long ingest(List<KeyValue> streams, Map<Long, Long> given) throws RocksDBException {
        synchronized (applyLock) {
            long created = 0;
            try (WriteBatch batch = new WriteBatch()) {
                for (KeyValue kv : streams) {
                    created += db.keyExists(kv.key()) ? 0 : 1;
                    batch.put(kv.key(), kv.value());
                }
                for (Map.Entry<Long, Long> p : given.entrySet()) {
                    long at = Math.max(p.getValue(), positions.applied(p.getKey()));
                    batch.put(meta, LedgerPositions.key(p.getKey()), LedgerPositions.value(at));
                }
                db.write(writeOptions, batch);
            }
            count.addAndGet(created);
            given.forEach(positions::applied);
            return created;
        }
    }

    long deleteRange(byte[] low, byte[] high) throws RocksDBException {
        synchronized (applyLock) {
            long n = 0;
            byte[] last = null;
            try (Slice upper = high == null ? null : new Slice(high);
                    ReadOptions ro = upper == null ? new ReadOptions() : new ReadOptions().setIterateUpperBound(upper);
                    RocksIterator it = db.newIterator(ro)) {
                for (it.seek(low); it.isValid(); it.next()) {
                    n++;
                    last = it.key();
                }
            }
            if (n > 0) {
                db.deleteRange(db.getDefaultColumnFamily(), writeOptions, low, high != null ? high : successor(last));
                count.addAndGet(-n);
            }
            return n;
        }
    }

    /** Compacts a deleted span, so that its table files give their space back (not under the apply lock). */
    void reclaim(byte[] low, byte[] high) throws RocksDBException {
        try (CompactRangeOptions o = new CompactRangeOptions().setExclusiveManualCompaction(false)
                .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForceOptimized)) {
            db.compactRange(db.getDefaultColumnFamily(), low, high, o);
        }
    }

    /** The smallest key above {@code key}. */
    private static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /** Closes the snapshots still open: the store is being released. */
    void closeAll() {
        List<RocksSnapshot> all = new ArrayList<>(open);
        all.forEach(RocksSnapshot::close);
    }

    private final class RocksSnapshot implements StoreSnapshot {

        private final Snapshot snapshot;
        private final ReadOptions options;
        private boolean closed;

        RocksSnapshot(Snapshot snapshot) {
            this.snapshot = snapshot;
            this.options = new ReadOptions().setSnapshot(snapshot);
        }

        @Override
        public synchronized Chunk read(byte[] from, byte[] toExclusive, long byteBudget) {
            check();
            try (Slice upper = toExclusive == null ? null : new Slice(toExclusive);
                    ReadOptions ro = new ReadOptions().setSnapshot(snapshot);
                    RocksIterator it = db.newIterator(upper == null ? ro : ro.setIterateUpperBound(upper))) {
                List<KeyValue> out = new ArrayList<>();
                long bytes = 0;
                for (it.seek(from); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    byte[] value = it.value();
                    long size = key.length + value.length;
                    if (!out.isEmpty() && bytes + size + (out.size() + 1L) * STREAM_OVERHEAD > byteBudget) {
                        return new Chunk(out, key, bytes);
                    }
                    out.add(new KeyValue(key, value));
                    bytes += size;
                }
                return new Chunk(out, null, bytes);
            }
        }

        @Override
        public synchronized long appliedEntry(long ledgerId) {
            check();
            try {
                byte[] v = db.get(meta, options, LedgerPositions.key(ledgerId));
                return v == null ? 0 : ByteBuffer.wrap(v).getLong();
            } catch (RocksDBException e) {
                throw new StoreException("RocksDB read of ledger " + ledgerId + "'s position in a snapshot failed: "
                        + e.getMessage(), e);
            }
        }

        private void check() {
            if (closed) {
                throw new StoreException("the snapshot was released (the store closed)", null);
            }
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                options.close();
                db.releaseSnapshot(snapshot);
                open.remove(this);
            }
        }
    }
}
