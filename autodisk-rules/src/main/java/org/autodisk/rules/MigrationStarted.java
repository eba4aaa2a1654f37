package org.autodisk.rules;

/**
 * A migration was recorded in the metadata; raised on its target node.
 *
 * @param migrationId the migration
 * @param rangeId     the range that moves
 * @param from        its owner
 * @param to          the data node it moves to
 * @param startedBy   who decided it: {@code rules} or {@code admin}
 */
public record MigrationStarted(long migrationId, int rangeId, String from, String to, String startedBy) {
}
