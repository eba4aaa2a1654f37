package org.autodisk.rules;

/**
 * What a range holds, reported periodically by its owner for each range it owns (split.drl).
 *
 * @param rangeId    the range
 * @param span       its key span, for messages (e.g. {@code [h, p)})
 * @param keys       streams in it (approximate beyond a million)
 * @param bytes      bytes of their keys and values (approximate beyond a million streams)
 * @param generation its split generation
 */
public record RangeStats(int rangeId, String span, long keys, long bytes, long generation) {
}
