package org.autodisk.rules;

/**
 * A migration recorded progress or entered another phase; raised on its target node.
 *
 * @param migrationId the migration
 * @param rangeId     the range that moves
 * @param phase       its phase ({@code copying}, {@code catching up}, {@code cleaning up})
 * @param keysCopied  streams copied so far
 * @param bytesCopied bytes copied so far
 */
public record MigrationProgress(long migrationId, int rangeId, String phase, long keysCopied, long bytesCopied) {
}
