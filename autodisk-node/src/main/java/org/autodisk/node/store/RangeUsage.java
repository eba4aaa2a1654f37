package org.autodisk.node.store;

/**
 * How much of a store one key range holds.
 *
 * @param keys              streams in the range (estimated for a range of a RocksDB store of more than 16 MiB)
 * @param bytes             bytes of their keys and values (for such a range, RocksDB's estimate of its files and
 *                          memtables)
 * @param requestsPerSecond stream requests its owner served for it per second lately (a store does not count: 0)
 */
public record RangeUsage(long keys, long bytes, double requestsPerSecond) {

    /**
     * What a store holds of a range, without a request count.
     *
     * @param keys  streams in the range
     * @param bytes bytes of their keys and values
     */
    public RangeUsage(long keys, long bytes) {
        this(keys, bytes, 0);
    }
}
