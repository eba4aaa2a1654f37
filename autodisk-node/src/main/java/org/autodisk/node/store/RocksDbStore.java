package org.autodisk.node.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.protocol.TraverseResult;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.MutableDBOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.ReadTier;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.LoggerFactory;

/**
 * A {@link LocalStore} in RocksDB. RocksDB's default bytewise comparator is unsigned lexicographic order, the
 * order of AutoDisk keys. The exact stream count is computed at open and kept up to date under per-key locks; a store
 * opened without a kept count (a backup copy, whose count nothing reads) counts its keys when asked instead, and
 * applies ledger entries without asking whether each key exists, which costs more than the write itself.
 * Ledger entries are applied in a write batch together with their ledger's applied entry, kept in the
 * {@code meta} column family.
 *
 * <p>Without RocksDB's own WAL (a data node whose log nodes hold every change), both column families flush
 * atomically, so what survives a crash is the data up to each ledger's applied entry of the last flush, which a
 * flush listener reads back from the persisted tier as its {@link #durableEntry}; the ledgers replay the rest.
 */
final class RocksDbStore implements LocalStore {

    static {
        RocksDB.loadLibrary();
    }

    private static final byte[] META_FAMILY = "meta".getBytes(StandardCharsets.US_ASCII);
    /** Where bulk loads write their SST files before ingesting them; emptied at open. */
    private static final String BULK_DIR = "bulk";

    private final Path dir;
    private final DBOptions options;
    private final ColumnFamilyOptions familyOptions;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    private final List<ColumnFamilyHandle> families;
    private final Object applyLock = new Object();
    private final boolean journal;
    private final boolean counted;
    private final KeyLocks locks = new KeyLocks();
    private final AtomicLong count = new AtomicLong();
    private final LedgerPositions positions = new LedgerPositions();
    private final Object closeLock = new Object();
    private final RocksTransfer transfer;
    private boolean released;

    private RocksDbStore(Path dir, DBOptions options, ColumnFamilyOptions familyOptions, WriteOptions writeOptions,
            boolean counted) throws RocksDBException {
        this.dir = dir;
        this.journal = !writeOptions.disableWAL();
        this.counted = counted;
        this.options = options;
        this.familyOptions = familyOptions;
        this.writeOptions = writeOptions;
        this.families = new ArrayList<>();
        this.db = RocksDB.open(options, dir.toString(), List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions),
                new ColumnFamilyDescriptor(META_FAMILY, familyOptions)), families);
        this.transfer = new RocksTransfer(db, families.get(1), writeOptions, applyLock, count, positions);
    }

    static RocksDbStore open(Path dir, boolean syncWrites, boolean journal) {
        return open(dir, syncWrites, journal, true);
    }

    /**
     * Opens the store, with a running stream count if {@code counted} (else {@link #count} counts the keys, and
     * applied entries are answered as changes made).
     */
    static RocksDbStore open(Path dir, boolean syncWrites, boolean journal, boolean counted) {
        FlushListener flushes = new FlushListener();
        DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setIncreaseParallelism(2).setAtomicFlush(!journal);
        if (!journal) {
            options.setListeners(List.of(flushes));
        }
        ColumnFamilyOptions familyOptions = lookupFriendly(new ColumnFamilyOptions());
        WriteOptions writeOptions = new WriteOptions().setSync(syncWrites && journal).setDisableWAL(!journal);
        try {
            Files.createDirectories(dir);
            dropUnfinishedLoads(dir.resolve(BULK_DIR));
            RocksDbStore store = new RocksDbStore(dir, options, familyOptions, writeOptions, counted);
            if (counted) {
                store.count.set(store.countAll());
            }
            store.positions.opened(LedgerPositions.readStored(store.db, store.meta()));
            flushes.attach(store::flushed);
            return store;
        } catch (RocksDBException | IOException e) {
            options.close();
            familyOptions.close();
            writeOptions.close();
            throw new StoreException(explain(dir, e), e);
        }
    }

    /** Inserts ask whether keys exist and most are new: whole-key bloom filters answer "absent" without a search. */
    private static void dropUnfinishedLoads(Path bulk) throws IOException {
        if (Files.isDirectory(bulk)) {
            try (var files = Files.list(bulk)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    private static ColumnFamilyOptions lookupFriendly(ColumnFamilyOptions o) {
        return o.setMemtablePrefixBloomSizeRatio(0.1).setMemtableWholeKeyFiltering(true)
                .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10, false))
                        .setWholeKeyFiltering(true));
    }

    private ColumnFamilyHandle meta() {
        return families.get(1);
    }

    private static String explain(Path dir, Exception e) {
        String msg = String.valueOf(e.getMessage());
        if (msg.contains("lock")) {
            return "data directory " + dir + " is in use by another node process (" + msg + ")";
        }
        return "cannot open RocksDB store in " + dir + ": " + msg;
    }

    private long countAll() {
        long n = 0;
        try (RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
            }
        }
        return n;
    }

    @Override
    public boolean put(byte[] key, byte[] value) {
        ReentrantLock lock = locks.lockFor(key);
        try {
            boolean created = !db.keyExists(key);
            db.put(writeOptions, key, value);
            if (created) {
                count.incrementAndGet();
            }
            return created;
        } catch (RocksDBException e) {
            throw failure("put", e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw failure("get", e);
        }
    }

    @Override
    public boolean contains(byte[] key) {
        return db.keyExists(key);
    }

    @Override
    public boolean delete(byte[] key) {
        ReentrantLock lock = locks.lockFor(key);
        try {
            if (!db.keyExists(key)) {
                return false;
            }
            db.delete(writeOptions, key);
            count.decrementAndGet();
            return true;
        } catch (RocksDBException e) {
            throw failure("delete", e);
        } finally {
            lock.unlock();
        }
    }

    /** Puts the changes of records (in order) into a batch; returns how the stream count changes. */
    private long stage(WriteBatch batch, List<LogRecord> records, boolean[] changed) throws RocksDBException {
        if (!counted) {
            return stageBlind(batch, records, changed);
        }
        Map<ByteBuffer, Boolean> exists = new HashMap<>();
        long delta = 0;
        for (int i = 0; i < records.size(); i++) {
            LogRecord r = records.get(i);
            ByteBuffer k = ByteBuffer.wrap(r.key());
            Boolean existed = exists.get(k);
            if (existed == null) {
                existed = db.keyExists(r.key());
            }
            boolean put = r.op() == LogRecord.PUT;
            if (put) {
                batch.put(r.key(), r.value());
            } else if (existed) {
                batch.delete(r.key());
            }
            delta += put ? (existed ? 0 : 1) : (existed ? -1 : 0);
            changed[i] = put != existed;
            exists.put(k, put);
        }
        return delta;
    }

    /** As {@link #stage} without asking whether keys exist: every change is answered as made. */
    private static long stageBlind(WriteBatch batch, List<LogRecord> records, boolean[] changed)
            throws RocksDBException {
        for (int i = 0; i < records.size(); i++) {
            LogRecord r = records.get(i);
            if (r.op() == LogRecord.PUT) {
                batch.put(r.key(), r.value());
            } else {
                batch.delete(r.key());
            }
            changed[i] = true;
        }
        return 0;
    }

    @Override
    public boolean[] applyLedger(long ledgerId, List<LogRecord> entries) {
        synchronized (applyLock) {
            List<LogRecord> fresh = positions.unapplied(ledgerId, entries);
            boolean[] changed = new boolean[fresh.size()];
            if (fresh.isEmpty()) {
                return LedgerPositions.align(entries, fresh, changed);
            }
            long last = fresh.get(fresh.size() - 1).lsn();
            try (WriteBatch batch = new WriteBatch()) {
                long delta = stage(batch, fresh, changed);
                batch.put(meta(), LedgerPositions.key(ledgerId), LedgerPositions.value(last));
                db.write(writeOptions, batch);
                count.addAndGet(delta);
                positions.applied(ledgerId, last);
                return LedgerPositions.align(entries, fresh, changed);
            } catch (RocksDBException e) {
                throw failure("apply of ledger " + ledgerId + " entries up to " + last, e);
            }
        }
    }

    @Override
    public long appliedEntry(long ledgerId) {
        return positions.applied(ledgerId);
    }

    @Override
    public long durableEntry(long ledgerId) {
        return journal ? positions.applied(ledgerId) : positions.durable(ledgerId);
    }

    /**
     * After a flush (on a RocksDB thread, also while the store closes): what table files hold survives a crash now.
     * Reads only while the store is not released: a read through a released handle would crash the process.
     */
    private void flushed() {
        synchronized (closeLock) {
            try (ReadOptions persisted = new ReadOptions().setReadTier(ReadTier.PERSISTED_TIER)) {
                if (!released) {
                    positions.durable(positions.readPersisted(db, meta(), persisted));
                }
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(RocksDbStore.class).warn("{}: cannot read what the flush made durable: {}",
                        dir, e.toString());
            }
        }
    }

    /** Fault hook: closes the way a killed process leaves the store, without flushing memtables. */
    void closeWithoutFlush() {
        try {
            db.setDBOptions(MutableDBOptions.builder().setAvoidFlushDuringShutdown(true).build());
        } catch (RocksDBException e) {
            throw failure("set avoid-flush-during-shutdown", e);
        }
        release();
    }

    /** Flushes memtables to table files, waiting for it (tests; RocksDB flushes by itself when they fill). */
    void flush() {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush, families);
        } catch (RocksDBException e) {
            throw failure("flush", e);
        }
    }

    @Override
    public TraverseResult scan(byte[] from, byte[] toExclusive, int limit, long byteBudget) {
        try (Slice upper = toExclusive == null ? null : new Slice(toExclusive);
                ReadOptions ro = readOptions(upper);
                RocksIterator it = db.newIterator(ro)) {
            List<KeyValue> out = new ArrayList<>();
            long bytes = 0;
            for (it.seek(from); it.isValid() && out.size() < limit; it.next()) {
                if (!out.isEmpty() && bytes >= byteBudget) {
                    return new TraverseResult(out, it.key());
                }
                KeyValue kv = new KeyValue(it.key(), it.value());
                out.add(kv);
                bytes += kv.key().length + kv.value().length;
            }
            return new TraverseResult(out, null);
        }
    }

    private static ReadOptions readOptions(Slice upper) {
        ReadOptions ro = new ReadOptions();
        return upper == null ? ro : ro.setIterateUpperBound(upper);
    }

    @Override
    public RangeUsage usage(byte[] low, byte[] high) {
        return usage(low, high, RocksUsage.EXACT_BYTES);
    }

    /** As {@link #usage(byte[], byte[])}, counting exactly only ranges estimated at up to so many bytes (tests). */
    RangeUsage usage(byte[] low, byte[] high, long exactBytes) {
        return new RocksUsage(db).measure(low, high, counted ? count.get() : estimatedKeys(), exactBytes);
    }

    @Override
    public byte[] splitKey(byte[] low, byte[] high) {
        long half = Math.min(usage(low, high).keys() / 2, MAX_SPLIT_OFFSET);
        return half == 0 ? null : new RocksUsage(db).keyAt(low, high, half);
    }

    @Override
    public StoreSnapshot snapshot() {
        return transfer.snapshot();
    }

    @Override
    public long ingest(List<KeyValue> streams, Map<Long, Long> given) {
        try {
            return transfer.ingest(streams, given);
        } catch (RocksDBException e) {
            throw failure("write of " + streams.size() + " copied streams", e);
        }
    }

    @Override
    public BulkLoad bulkLoad() {
        return new RocksBulkLoad(db, new Options(options, familyOptions), dir.resolve(BULK_DIR), applyLock, count,
                transfer);
    }

    @Override
    public long deleteRangeIf(byte[] low, byte[] high, BooleanSupplier condition) {
        try {
            return transfer.deleteRange(low, high, condition);
        } catch (RocksDBException e) {
            throw failure("delete of a range", e);
        }
    }

    @Override
    public void reclaim(byte[] low, byte[] high) {
        try {
            transfer.reclaim(low, high, 60_000_000_000L); // a minute at most for snapshots that pin the span
        } catch (RocksDBException e) {
            throw failure("compaction of a deleted range", e);
        }
    }

    @Override
    public void makeDurable() {
        if (!journal) {
            flush();
        }
    }

    @Override
    public long count() {
        return counted ? count.get() : countAll();
    }

    private long estimatedKeys() {
        try {
            return db.getLongProperty("rocksdb.estimate-num-keys");
        } catch (RocksDBException e) {
            throw failure("estimate of the key count", e);
        }
    }

    @Override
    public String describe() {
        return "rocksdb:" + dir;
    }

    @Override
    public void close() {
        try {
            flush();
        } finally {
            release();
        }
    }

    private void release() {
        synchronized (closeLock) { // a flush listener reading now finishes first
            released = true;
        }
        transfer.closeAll();
        families.forEach(ColumnFamilyHandle::close);
        db.close();
        writeOptions.close();
        familyOptions.close();
        options.close();
    }

    private StoreException failure(String op, RocksDBException e) {
        return new StoreException("RocksDB " + op + " failed in " + dir + ": " + e.getMessage(), e);
    }
}
