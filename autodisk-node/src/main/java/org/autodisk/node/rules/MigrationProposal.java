package org.autodisk.node.rules;

/**
 * A move a rule asked for through {@code actions.startMigration(range, target, reason)}, or of a range's upper half
 * through {@code actions.startMigrationOfUpperHalf(range, target, reason)}.
 *
 * @param rangeId   the range
 * @param target    the data node it should move to
 * @param reason    why, as the rule put it
 * @param upperHalf whether the range splits at its middle stream first and only its upper half moves
 */
public record MigrationProposal(int rangeId, String target, String reason, boolean upperHalf) {

    /**
     * A move of a whole range.
     *
     * @param rangeId the range
     * @param target  the data node it should move to
     * @param reason  why, as the rule put it
     */
    public MigrationProposal(int rangeId, String target, String reason) {
        this(rangeId, target, reason, false);
    }
}
