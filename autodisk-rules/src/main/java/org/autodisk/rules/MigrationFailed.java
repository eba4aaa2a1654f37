package org.autodisk.rules;

/**
 * A migration ended before its cutover (aborted): the range stays on its owner; raised on the would-be target.
 *
 * @param migrationId the migration
 * @param rangeId     the range that did not move
 * @param from        its owner
 * @param to          the target it did not reach
 * @param reason      why, as far as the target knows
 */
public record MigrationFailed(long migrationId, int rangeId, String from, String to, String reason) {
}
