package org.autodisk.rules;

/**
 * A range moved from one node to another: its migration ended after the cutover; raised on the new owner.
 *
 * @param migrationId the migration
 * @param rangeId     the range migrated
 * @param from        the former owner
 * @param to          the new owner
 */
public record MigrationFinished(long migrationId, int rangeId, String from, String to) {
}
