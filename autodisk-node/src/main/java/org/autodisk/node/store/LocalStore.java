package org.autodisk.node.store;

import org.autodisk.core.protocol.TraverseResult;
import java.util.List;
import org.autodisk.node.wire.LogRecord;

/**
 * The node's local disk: streams in unsigned key order. Implementations are thread-safe.
 */
public interface LocalStore extends AutoCloseable {

    /** A split key is at most this many streams into a range. */
    long MAX_SPLIT_OFFSET = 1 << 20;

    /**
     * Creates or replaces a stream.
     *
     * @param key   the key
     * @param value the value
     * @return true if the stream was created, false if it replaced one
     */
    boolean put(byte[] key, byte[] value);

    /**
     * Reads a stream.
     *
     * @param key the key
     * @return the value, or {@code null} if there is no such stream
     */
    byte[] get(byte[] key);

    /**
     * Tells whether a stream exists, without copying its value where the store can.
     *
     * @param key the key
     * @return true if there is such a stream
     */
    default boolean contains(byte[] key) {
        return get(key) != null;
    }

    /**
     * Deletes a stream.
     *
     * @param key the key
     * @return true if a stream was removed
     */
    boolean delete(byte[] key);

    /**
     * Applies a write-ahead-log record and stores its LSN as the applied LSN, atomically with the change.
     * Records are applied in LSN order.
     *
     * @param record the record
     * @return for a PUT whether the stream was created, for a DELETE whether it existed
     */
    boolean apply(LogRecord record);

    /**
     * Applies records in LSN order, as {@link #apply} one by one would, possibly in one atomic write.
     *
     * @param records records in LSN order
     * @return for each record what {@link #apply} would have returned for it
     */
    default boolean[] applyAll(java.util.List<LogRecord> records) {
        boolean[] changed = new boolean[records.size()];
        for (int i = 0; i < changed.length; i++) {
            changed[i] = apply(records.get(i));
        }
        return changed;
    }

    /**
     * As {@link #applyAll}, but without waiting: a store that would have to wait first (a RocksDB write stall while
     * memtables are flushed) applies nothing and returns {@code null}, and the caller applies later where waiting is
     * allowed. Network threads use it.
     *
     * @param records records in LSN order
     * @return as {@link #applyAll}, or {@code null} if nothing was applied
     */
    default boolean[] tryApplyAll(java.util.List<LogRecord> records) {
        return applyAll(records);
    }

    /**
     * Applies entries of one ledger in id order, skipping every entry at or below the ledger's applied entry (a
     * replay that overlaps what was applied changes nothing), and stores the ledger's applied entry in the same
     * atomic write.
     *
     * @param ledgerId the ledger
     * @param entries  its entries in id order; each record's LSN is its entry id
     * @return per entry: for a PUT whether the stream was created, for a DELETE whether it existed; false for an
     *         entry skipped
     */
    boolean[] applyLedger(long ledgerId, List<LogRecord> entries);

    /**
     * Returns the last entry of a ledger applied to this store, as stored with the data.
     *
     * @param ledgerId the ledger
     * @return the entry id, 0 if none
     */
    long appliedEntry(long ledgerId);

    /**
     * Returns the last entry of a ledger whose change survives a crash of this process (see {@link #durableLsn()}).
     *
     * @param ledgerId the ledger
     * @return the entry id, at most {@link #appliedEntry}
     */
    default long durableEntry(long ledgerId) {
        return appliedEntry(ledgerId);
    }

    /**
     * Records that everything up to an LSN is applied, for logs of which this store holds only some records
     * (a backup copy of some of another node's ranges).
     *
     * @param lsn the LSN; ignored if not above the applied LSN
     */
    void markApplied(long lsn);

    /**
     * Returns the LSN of the last record applied, as stored with the data.
     *
     * @return the LSN, 0 if no record was ever applied
     */
    long appliedLsn();

    /**
     * Returns the highest LSN whose change survives a crash of this process: the applied LSN when the store
     * journals its own writes, else the applied LSN of its last flush. A log node may drop records up to it.
     *
     * @return the LSN, at most {@link #appliedLsn()}
     */
    default long durableLsn() {
        return appliedLsn();
    }

    /**
     * Reads streams with {@code from <= key < toExclusive} in key order.
     *
     * @param from        first key, inclusive (empty: from the start)
     * @param toExclusive end key, exclusive ({@code null}: to the end)
     * @param limit       at most this many streams
     * @param byteBudget  stop once the keys and values read reach this many bytes (at least one stream is
     *                    always returned); the result's resume key then says where to go on
     * @return the streams and, if cut by the budget, the key to resume from
     */
    TraverseResult scan(byte[] from, byte[] toExclusive, int limit, long byteBudget);

    /**
     * Measures the streams with {@code low <= key < high}: what a range holds, for the admin view and the split
     * rules. Exact in memory; a RocksDB store counts a range of up to 16 MiB exactly and estimates a larger one from
     * its exact stream count and RocksDB's approximate sizes, without reading it.
     *
     * @param low  first key, inclusive
     * @param high end key, exclusive ({@code null}: to the end)
     * @return keys and bytes
     */
    RangeUsage usage(byte[] low, byte[] high);

    /**
     * Returns a key where the range {@code [low, high)} splits into halves of about as many streams: the key of
     * its middle stream, or of its millionth in a larger range (the right half then splits again). Reads keys only
     * where the store can.
     *
     * @param low  first key, inclusive
     * @param high end key, exclusive ({@code null}: to the end)
     * @return a stored key above {@code low}, or {@code null} if the range holds fewer than two streams
     */
    byte[] splitKey(byte[] low, byte[] high);

    /**
     * Returns the exact number of streams stored.
     *
     * @return the count
     */
    long count();

    /**
     * Describes the store for logs and status.
     *
     * @return e.g. {@code rocksdb:/data/d1}
     */
    String describe();

    /** Flushes and releases the store; later calls fail. */
    @Override
    void close();
}
