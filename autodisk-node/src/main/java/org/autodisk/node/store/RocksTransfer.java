package org.autodisk.node.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
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

    /** How long a closing store waits for the compactions it cancelled. */
    private static final long CANCEL_WAIT_NANOS = 60_000_000_000L;

    private final RocksDB db;
    private final ColumnFamilyHandle meta;
    private final WriteOptions writeOptions;
    /** Streams a deletion counts and deletes under the apply lock at a time. */
    static final int PIECE = 2_000;
    private final Object applyLock;
    private final AtomicLong count;
    private final LedgerPositions positions;
    private final Set<RocksSnapshot> open = ConcurrentHashMap.newKeySet();
    /** Compactions running ({@link #reclaim}); guards {@link #closing}. */
    private final Set<CompactRangeOptions> compacting = new HashSet<>();
    private boolean closing;

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

    /**
     * Deletes a span piece by piece: each piece's end is found outside the apply lock, then its streams are counted and
     * deleted under it, only if the condition, asked first, still holds. Applies wait for one piece of about
     * {@link #PIECE} streams, never for a whole large span, and between pieces they find the lock free (a monitor is
     * not fair: one taken again at once would keep them waiting).
     */
    long deleteRange(byte[] low, byte[] high, BooleanSupplier condition) throws RocksDBException {
        long total = 0;
        byte[] from = low;
        while (from != null) {
            byte[] end = pieceEnd(from, high);
            synchronized (applyLock) {
                if (!condition.getAsBoolean()) {
                    return total;
                }
                total += deletePiece(from, end != null ? end : high);
            }
            from = end;
        }
        return total;
    }

    /** The first key {@link #PIECE} streams on from a key, below {@code high}; {@code null} when fewer are left. */
    private byte[] pieceEnd(byte[] from, byte[] high) {
        try (Slice upper = high == null ? null : new Slice(high);
                ReadOptions ro = upper == null ? new ReadOptions() : new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = db.newIterator(ro)) {
            it.seek(from);
            for (int n = 0; n < PIECE && it.isValid(); n++) {
                it.next();
            }
            return it.isValid() ? it.key() : null;
        }
    }

    /** Counts and deletes the streams from a key up to an end ({@code null}: to the last), under the apply lock. */
    private long deletePiece(byte[] from, byte[] end) throws RocksDBException {
        long n = 0;
        byte[] last = null;
        try (Slice upper = end == null ? null : new Slice(end);
                ReadOptions ro = upper == null ? new ReadOptions() : new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = db.newIterator(ro)) {
            for (it.seek(from); it.isValid(); it.next()) {
                n++;
                last = it.key();
            }
        }
        if (n > 0) {
            db.deleteRange(db.getDefaultColumnFamily(), writeOptions, from, end != null ? end : successor(last));
            count.addAndGet(-n);
        }
        return n;
    }

    /**
     * Compacts a deleted span so that its table files give their space back (not under the apply lock), once no
     * snapshot is open: a snapshot pins the deleted keys, and the compaction would free nothing. A store being closed
     * cancels it ({@link #closeAll}): a compaction running on a closed database would crash the process.
     *
     * @param waitNanos how long to wait for the open snapshots (copies of other ranges) to close
     * @throws RocksDBException if the compaction failed, snapshots stayed open, or the store is closing
     */
    void reclaim(byte[] low, byte[] high, long waitNanos) throws RocksDBException {
        awaitNoSnapshot(waitNanos);
        CompactRangeOptions o = new CompactRangeOptions().setExclusiveManualCompaction(false)
                .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForceOptimized);
        synchronized (compacting) {
            if (closing) {
                o.close();
                throw new RocksDBException("the store is closing");
            }
            compacting.add(o);
        }
        try {
            db.compactRange(db.getDefaultColumnFamily(), low, high, o);
        } finally {
            synchronized (compacting) {
                compacting.remove(o);
                compacting.notifyAll();
            }
            o.close();
        }
    }

    private void awaitNoSnapshot(long waitNanos) throws RocksDBException {
        long deadline = System.nanoTime() + waitNanos;
        synchronized (open) {
            while (!open.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new RocksDBException(open.size() + " snapshot(s) of the store (copies of other ranges under "
                            + "way) still pin the deleted span");
                }
                try {
                    open.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RocksDBException("interrupted while snapshots pinned the deleted span");
                }
            }
        }
    }

    /** The smallest key above {@code key}. */
    private static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /**
     * Cancels the compactions running and waits for them (at most a minute), then closes the snapshots still open:
     * the store is being released.
     */
    void closeAll() {
        synchronized (compacting) {
            closing = true;
            compacting.forEach(o -> o.setCanceled(true));
            long deadline = System.nanoTime() + CANCEL_WAIT_NANOS;
            while (!compacting.isEmpty() && deadline - System.nanoTime() > 0) {
                try {
                    compacting.wait(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
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
                synchronized (open) {
                    open.remove(this);
                    open.notifyAll();
                }
            }
        }
    }
}
