package org.autodisk.node.rules;

/**
 * A move a rule asked for through {@code actions.startMigration(range, target, reason)}.
 *
 * @param rangeId the range
 * @param target  the data node it should move to
 * @param reason  why, as the rule put it
 */
public record MigrationProposal(int rangeId, String target, String reason) {
}
