package org.autodisk.node.store;

/**
 * How much of a store one key range holds.
 *
 * @param keys  streams in the range (estimated for a range of a RocksDB store of more than 16 MiB)
 * @param bytes bytes of their keys and values (for such a range, RocksDB's estimate of its files and memtables)
 */
public record RangeUsage(long keys, long bytes) {
}
