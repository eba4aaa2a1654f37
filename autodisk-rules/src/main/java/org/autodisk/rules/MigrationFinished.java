package org.autodisk.rules;

/**
 * A range moved from one node to another.
 *
 * @param rangeId the range migrated
 * @param from the former owner
 * @param to the new owner
 */
public record MigrationFinished(int rangeId, String from, String to) {
}
