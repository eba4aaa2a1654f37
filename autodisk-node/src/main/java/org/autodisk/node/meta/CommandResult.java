package org.autodisk.node.meta;

import java.util.List;

/**
 * What a committed command did.
 *
 * @param applied  whether it changed the metadata
 * @param refusal  why not, naming what it found ({@code null} when applied)
 * @param version  the metadata version after it
 * @param rangeIds the ranges it created or changed (a split: left, right)
 * @param ledgerId the ledger it opened or changed, 0 if none
 * @param migrationId the migration it started or changed, 0 if none
 */
public record CommandResult(boolean applied, String refusal, long version, List<Integer> rangeIds, long ledgerId,
        long migrationId) {

    /** Copies the list. */
    public CommandResult {
        rangeIds = rangeIds == null ? List.of() : List.copyOf(rangeIds);
    }

    /**
     * A result without a ledger.
     *
     * @param applied  whether it changed the metadata
     * @param refusal  why not
     * @param version  the version after it
     * @param rangeIds the ranges it touched
     */
    public CommandResult(boolean applied, String refusal, long version, List<Integer> rangeIds) {
        this(applied, refusal, version, rangeIds, 0, 0);
    }

    /**
     * A ledger change that applied.
     *
     * @param version  the version after it
     * @param ledgerId the ledger
     * @return the result
     */
    public static CommandResult appliedToLedger(long version, long ledgerId) {
        return new CommandResult(true, null, version, List.of(), ledgerId, 0);
    }

    /**
     * A migration change that applied.
     *
     * @param version     the version after it
     * @param rangeId     the range that moves
     * @param migrationId the migration
     * @return the result
     */
    public static CommandResult appliedToMigration(long version, int rangeId, long migrationId) {
        return new CommandResult(true, null, version, List.of(rangeId), 0, migrationId);
    }

    /**
     * A cutover that applied and opened the target's ledger.
     *
     * @param version     the version after it
     * @param rangeId     the range that moved
     * @param migrationId the migration
     * @param ledgerId    the ledger it opened for the target (0: none)
     * @return the result
     */
    public static CommandResult cutOver(long version, int rangeId, long migrationId, long ledgerId) {
        return new CommandResult(true, null, version, List.of(rangeId), ledgerId, migrationId);
    }

    /**
     * A change that applied.
     *
     * @param version  the version after it
     * @param rangeIds the ranges it touched
     * @return the result
     */
    public static CommandResult applied(long version, List<Integer> rangeIds) {
        return new CommandResult(true, null, version, rangeIds);
    }

    /**
     * A refusal.
     *
     * @param version the unchanged version
     * @param why     what the command expected and what it found
     * @return the result
     */
    public static CommandResult refused(long version, String why) {
        return new CommandResult(false, why, version, List.of());
    }
}
