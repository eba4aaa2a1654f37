package org.autodisk.node.store;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.TraverseResult;
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
     * Returns the last entry of a ledger whose change survives a crash of this process: the applied entry when the
     * store journals its own writes, else the applied entry of its last flush. Log nodes may drop entries up to it.
     *
     * @param ledgerId the ledger
     * @return the entry id, at most {@link #appliedEntry}
     */
    default long durableEntry(long ledgerId) {
        return appliedEntry(ledgerId);
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
     * Opens a view of the store that later writes do not change, for a migration's copy of a range.
     *
     * @return the snapshot; the caller closes it
     */
    StoreSnapshot snapshot();

    /**
     * Writes streams copied from another node's snapshot, and raises the applied entry of the ledgers given to at
     * least the entry named, in one atomic write. Nothing goes through the log: the copy is made durable with
     * {@link #makeDurable}.
     *
     * @param streams   the streams (replacing any with the same key)
     * @param positions ledger to applied entry from the copied snapshot (empty for none)
     * @return how many of the streams were new
     */
    long ingest(List<KeyValue> streams, Map<Long, Long> positions);

    /**
     * Starts a bulk load of copied streams (see {@link BulkLoad}); by default each finish writes what was added with
     * {@link #ingest} and makes it durable.
     *
     * @return the load; the caller closes it
     */
    default BulkLoad bulkLoad() {
        return new BulkLoad() {
            private final List<KeyValue> added = new java.util.ArrayList<>();

            @Override
            public void add(List<KeyValue> ascending) {
                added.addAll(ascending);
            }

            @Override
            public boolean pending() {
                return !added.isEmpty();
            }

            @Override
            public long finish(Map<Long, Long> positions) {
                long created = ingest(added, positions);
                added.clear();
                makeDurable();
                return created;
            }

            @Override
            public void close() {
                added.clear();
            }
        };
    }

    /**
     * Deletes every stream with {@code low <= key < high}: a range this node no longer owns, or a copy abandoned.
     *
     * @param low  first key, inclusive
     * @param high end key, exclusive ({@code null}: to the end)
     * @return how many streams were deleted
     */
    default long deleteRange(byte[] low, byte[] high) {
        return deleteRangeIf(low, high, () -> true);
    }

    /**
     * Deletes every stream with {@code low <= key < high} while a condition holds, asking it under the lock the
     * store's ledger applies, bulk loads and deletions take: a writer that can write the span only once the
     * condition turned false (this node took the range on) writes either after the deletion or into a span kept. A
     * store that deletes a large span piece by piece (RocksDB: about 2,000 streams at a time, so that applies never
     * wait for a whole span) asks before each piece and stops when it no longer holds.
     *
     * @param low       first key, inclusive
     * @param high      end key, exclusive ({@code null}: to the end)
     * @param condition whether the span is to go; asked under the lock
     * @return how many streams were deleted; 0 when the condition did not hold
     */
    long deleteRangeIf(byte[] low, byte[] high, BooleanSupplier condition);

    /**
     * Gives the disk space of a span deleted with {@link #deleteRange} back now, so that the free space the disk
     * reports counts it (RocksDB compacts the span: a deletion alone frees nothing until a compaction meets it).
     * Blocks while it runs; a store that frees space at once does nothing.
     *
     * @param low  first key, inclusive
     * @param high end key, exclusive ({@code null}: to the end)
     */
    default void reclaim(byte[] low, byte[] high) {
    }

    /**
     * Makes everything written so far survive a crash of the process (RocksDB without its own WAL flushes its
     * memtables; a journaled store has nothing to do), and returns once it does.
     */
    void makeDurable();

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
