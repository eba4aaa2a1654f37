package org.autodisk.node.rules;

/**
 * A move a rule asked for through {@code actions.startMigration(range, target, reason)}, of a range's upper half
 * through {@code actions.startMigrationOfUpperHalf(range, target, reason)}, or a backup fill through
 * {@code actions.startBackupFill(range, target, reason)}.
 *
 * @param rangeId   the range
 * @param target    the data node it should move to
 * @param reason    why, as the rule put it
 * @param upperHalf whether the range splits at its middle stream first and only its upper half moves
 * @param backup    whether the target gets a backup copy instead of the range
 */
public record MigrationProposal(int rangeId, String target, String reason, boolean upperHalf, boolean backup) {

    /**
     * A move of a range or of its upper half.
     *
     * @param rangeId   the range
     * @param target    the data node it should move to
     * @param reason    why, as the rule put it
     * @param upperHalf whether only its upper half moves, after a split
     */
    public MigrationProposal(int rangeId, String target, String reason, boolean upperHalf) {
        this(rangeId, target, reason, upperHalf, false);
    }

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
