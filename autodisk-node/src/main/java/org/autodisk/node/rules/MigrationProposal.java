package org.autodisk.node.rules;

/**
 * A move a rule asked for through {@code actions.startMigration(range, target, reason)}, of a range's upper half
 * through {@code actions.startMigrationOfUpperHalf(range, target, reason)}, a backup fill through
 * {@code actions.startBackupFill(range, target, reason)}, or a backup's move through
 * {@code actions.startBackupMove(range, from, target, reason)}.
 *
 * @param rangeId   the range
 * @param target    the data node it should move to
 * @param reason    why, as the rule put it
 * @param upperHalf whether the range splits at its middle stream first and only its upper half moves
 * @param backup    whether the target gets a backup copy instead of the range
 * @param replaces  for a backup fill, the backup the target takes the place of ({@code null}: the range has none)
 */
public record MigrationProposal(int rangeId, String target, String reason, boolean upperHalf, boolean backup,
        String replaces) {

    /**
     * A move of a range or of its upper half, or the fill of a missing backup.
     *
     * @param rangeId   the range
     * @param target    the data node it should move to
     * @param reason    why, as the rule put it
     * @param upperHalf whether only its upper half moves, after a split
     * @param backup    whether the target gets a backup copy instead of the range
     */
    public MigrationProposal(int rangeId, String target, String reason, boolean upperHalf, boolean backup) {
        this(rangeId, target, reason, upperHalf, backup, null);
    }

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
