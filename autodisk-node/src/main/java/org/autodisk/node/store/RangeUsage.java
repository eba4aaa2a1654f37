package org.autodisk.node.store;

/**
 * How much of a store one key range holds.
 *
 * @param keys  streams in the range (approximate for large ranges of a RocksDB store)
 * @param bytes bytes of their keys and values (approximate for a RocksDB store: on disk and in memory)
 */
public record RangeUsage(long keys, long bytes) {
}
