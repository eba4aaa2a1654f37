package org.autodisk.rules;

/**
 * What a range holds, reported periodically by its owner for each range it owns (split.drl).
 *
 * @param rangeId    the range
 * @param span       its key span, for messages (e.g. {@code [h, p)})
 * @param keys       streams in it (estimated for a range of more than 16 MiB)
 * @param bytes      bytes it takes: its keys and values, or RocksDB's estimate for a range of more than 16 MiB
 * @param generation its split generation
 */
public record RangeStats(int rangeId, String span, long keys, long bytes, long generation) {
}
