package org.autodisk.node.store;

import java.util.List;
import org.autodisk.core.protocol.KeyValue;

/**
 * A view of a store that later writes do not change (RocksDB: a snapshot), read by a migration's copy. The ledger
 * positions it answers are at most what its streams reflect, so replaying each ledger from them over the copy
 * yields the range as the ledgers have it.
 */
public interface StoreSnapshot extends AutoCloseable {

    /** What each stream costs a chunk's budget besides its key and value (its framing on the wire). */
    int STREAM_OVERHEAD = 16;

    /**
     * A run of streams read from a snapshot.
     *
     * @param streams the streams in key order
     * @param next    the key to go on from, or {@code null} when the bound was reached
     * @param bytes   the bytes of keys and values read (without the overhead)
     */
    record Chunk(List<KeyValue> streams, byte[] next, long bytes) {
    }

    /**
     * Reads streams with {@code from <= key < toExclusive} until the next would take the chunk past the byte budget,
     * counting each stream's key, value and {@link #STREAM_OVERHEAD} (one stream is always read, however large).
     *
     * @param from        first key, inclusive
     * @param toExclusive end, exclusive ({@code null}: to the end)
     * @param byteBudget  the most bytes of keys and values, unless the first stream alone is larger
     * @return the streams and where to go on
     */
    Chunk read(byte[] from, byte[] toExclusive, long byteBudget);

    /**
     * Returns the entry of a ledger applied to the store when the snapshot was taken.
     *
     * @param ledgerId the ledger
     * @return the entry id, 0 if none
     */
    long appliedEntry(long ledgerId);

    /** Releases the snapshot. */
    @Override
    void close();
}
