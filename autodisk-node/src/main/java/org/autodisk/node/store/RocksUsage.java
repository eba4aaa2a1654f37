package org.autodisk.node.store;

import java.util.Arrays;
import java.util.List;
import org.rocksdb.Range;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.SizeApproximationFlag;
import org.rocksdb.Slice;

/**
 * Measures key ranges of a RocksDB store. A range that RocksDB estimates at no more than {@link #EXACT_BYTES}
 * (table files and memtables) is counted exactly, reading keys and the lengths of values; a larger one is not read
 * at all: its bytes are RocksDB's estimate and its streams the store's exact count scaled by the range's share of
 * the estimated size of the whole store. A periodic check of every range so costs at most 16 MiB of reads per
 * range, however large the store.
 */
final class RocksUsage {

    /** Ranges estimated at up to this many bytes are counted exactly. */
    static final long EXACT_BYTES = 16L << 20;

    /** Above every key shorter than this many bytes: the end of the key space for size estimates. */
    private static final byte[] END = endKey(4097);

    private final RocksDB db;

    RocksUsage(RocksDB db) {
        this.db = db;
    }

    /**
     * Measures a range.
     *
     * @param low        first key, inclusive
     * @param high       end key, exclusive, or {@code null}
     * @param storeCount the exact number of streams in the whole store
     * @param exactBytes ranges estimated at up to this many bytes are counted exactly
     * @return keys and bytes
     */
    RangeUsage measure(byte[] low, byte[] high, long storeCount, long exactBytes) {
        long approx = approximateBytes(low, high);
        if (approx <= exactBytes) {
            return count(low, high);
        }
        double share = (double) approx / Math.max(approx, approximateBytes(new byte[0], null));
        return new RangeUsage(Math.round(storeCount * share), approx);
    }

    private RangeUsage count(byte[] low, byte[] high) {
        byte[] one = new byte[1];
        long keys = 0;
        long bytes = 0;
        try (Slice upper = high == null ? null : new Slice(high);
                ReadOptions ro = upper == null ? new ReadOptions() : new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = db.newIterator(ro)) {
            for (it.seek(low); it.isValid(); it.next()) {
                keys++;
                bytes += it.key(one) + it.value(one);
            }
        }
        return new RangeUsage(keys, bytes);
    }

    /**
     * Finds the key {@code offset} streams into a range, reading keys only as far as that.
     *
     * @param low    first key, inclusive
     * @param high   end key, exclusive, or {@code null}
     * @param offset how many streams to step over (at least 1)
     * @return the key, or {@code null} if the range holds no more streams than that
     */
    byte[] keyAt(byte[] low, byte[] high, long offset) {
        try (Slice upper = high == null ? null : new Slice(high);
                ReadOptions ro = upper == null ? new ReadOptions() : new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = db.newIterator(ro)) {
            long i = 0;
            for (it.seek(low); it.isValid(); it.next()) {
                if (i++ == offset) {
                    return it.key();
                }
            }
            return null;
        }
    }

    private long approximateBytes(byte[] from, byte[] high) {
        try (Slice start = new Slice(from); Slice limit = new Slice(high == null ? END : high)) {
            long[] sizes = db.getApproximateSizes(List.of(new Range(start, limit)),
                    SizeApproximationFlag.INCLUDE_FILES, SizeApproximationFlag.INCLUDE_MEMTABLES);
            return sizes[0];
        }
    }

    private static byte[] endKey(int length) {
        byte[] k = new byte[length];
        Arrays.fill(k, (byte) 0xFF);
        return k;
    }
}
