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
 * Measures a key range of a RocksDB store without reading its values: the first streams (a million,
 * {@link #EXACT_KEYS}) are counted exactly (a value's length is read without copying the value); beyond them, the
 * rest of the range is estimated: what was counted, scaled by how much larger RocksDB's approximate size (table
 * files and memtables) of the rest of the span is than that of the span counted.
 */
final class RocksUsage {

    /** Streams counted exactly before estimating. */
    static final long EXACT_KEYS = 1 << 20;

    /** Above every key shorter than this many bytes: the end of the key space for size estimates. */
    private static final byte[] END = endKey(4097);

    private final RocksDB db;
    private final long exactKeys;

    RocksUsage(RocksDB db, long exactKeys) {
        this.db = db;
        this.exactKeys = exactKeys;
    }

    RangeUsage measure(byte[] low, byte[] high) {
        byte[] one = new byte[1];
        long keys = 0;
        long bytes = 0;
        try (Slice upper = high == null ? null : new Slice(high);
                ReadOptions ro = upper == null ? new ReadOptions() : new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = db.newIterator(ro)) {
            for (it.seek(low); it.isValid(); it.next()) {
                if (keys == exactKeys) {
                    return extrapolate(new RangeUsage(keys, bytes), low, it.key(), high);
                }
                keys++;
                bytes += it.key(one) + it.value(one);
            }
        }
        return new RangeUsage(keys, bytes);
    }

    /** Scales what was counted in {@code [low, next)} by how much larger RocksDB estimates {@code [next, high)}. */
    private RangeUsage extrapolate(RangeUsage counted, byte[] low, byte[] next, byte[] high) {
        double factor = (double) approximateBytes(next, high) / Math.max(1, approximateBytes(low, next));
        return new RangeUsage(counted.keys() + Math.round(counted.keys() * factor),
                counted.bytes() + Math.round(counted.bytes() * factor));
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
