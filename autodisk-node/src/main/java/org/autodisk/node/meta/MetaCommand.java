package org.autodisk.node.meta;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/**
 * A change to the cluster metadata. Each is one committed command; each names what it expects to find (a range's
 * epoch and generation, a member's state), so that of two conflicting decisions only the first to commit applies
 * and the other is refused saying what it found.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = MetaCommand.Bootstrap.class, name = "bootstrap"),
    @JsonSubTypes.Type(value = MetaCommand.Split.class, name = "split"),
    @JsonSubTypes.Type(value = MetaCommand.ChangeRange.class, name = "change-range"),
    @JsonSubTypes.Type(value = MetaCommand.SetMemberState.class, name = "member-state"),
    @JsonSubTypes.Type(value = MetaCommand.AddMember.class, name = "add-member"),
    @JsonSubTypes.Type(value = MetaCommand.OpenLedger.class, name = "open-ledger"),
    @JsonSubTypes.Type(value = MetaCommand.ChangeEnsemble.class, name = "change-ensemble"),
    @JsonSubTypes.Type(value = MetaCommand.RecoverLedger.class, name = "recover-ledger"),
    @JsonSubTypes.Type(value = MetaCommand.CloseLedger.class, name = "close-ledger"),
    @JsonSubTypes.Type(value = MetaCommand.DeleteLedger.class, name = "delete-ledger"),
    @JsonSubTypes.Type(value = MetaCommand.StartMigration.class, name = "start-migration"),
    @JsonSubTypes.Type(value = MetaCommand.MigrationProgress.class, name = "migration-progress"),
    @JsonSubTypes.Type(value = MetaCommand.ClaimCopy.class, name = "claim-copy"),
    @JsonSubTypes.Type(value = MetaCommand.ControlMigration.class, name = "control-migration"),
    @JsonSubTypes.Type(value = MetaCommand.CutOver.class, name = "cut-over"),
    @JsonSubTypes.Type(value = MetaCommand.AddBackup.class, name = "add-backup"),
    @JsonSubTypes.Type(value = MetaCommand.EndMigration.class, name = "end-migration"),
    @JsonSubTypes.Type(value = MetaCommand.Promote.class, name = "promote"),
    @JsonSubTypes.Type(value = MetaCommand.RangeRecovered.class, name = "range-recovered"),
    @JsonSubTypes.Type(value = MetaCommand.DropBackup.class, name = "drop-backup")
})
public sealed interface MetaCommand {

    /**
     * Creates the cluster: applied once, refused once the cluster exists.
     *
     * @param directory the directory kind
     * @param members   every member
     * @param ranges    the initial ranges, tiling the key space
     * @param created   the configuration they came from
     */
    record Bootstrap(String directory, List<Member> members, List<RangeDescriptor> ranges,
            MetaState.Creation created) implements MetaCommand {
    }

    /**
     * Splits a range at a key strictly inside it; data stays where it is. Asked by the range's owner, the split also
     * opens a ledger for each half on the owner's log nodes, which that process writes without opening one itself;
     * the range's ledger is closed by its writer as before.
     *
     * @param rangeId            the range
     * @param expectedGeneration its generation when the split was decided
     * @param at                 the first key of the right half
     * @param ensemble           the log nodes of the halves' ledgers; empty to open none (each half opens its own)
     * @param opener             the owner's process that asked (see {@link LedgerInfo#opener()}); 0 with no ensemble
     */
    record Split(int rangeId, long expectedGeneration, byte[] at, List<String> ensemble, long opener)
            implements MetaCommand {

        /** Copies the list; none is none. */
        public Split {
            ensemble = ensemble == null ? List.of() : List.copyOf(ensemble);
        }

        /**
         * A split that opens no ledger.
         *
         * @param rangeId            the range
         * @param expectedGeneration its generation when the split was decided
         * @param at                 the first key of the right half
         */
        public Split(int rangeId, long expectedGeneration, byte[] at) {
            this(rangeId, expectedGeneration, at, List.of(), 0);
        }
    }

    /**
     * Gives a range another owner, backups or state; the epoch rises when the owner changes. A new owner ends a
     * migration of the range that has not cut over (its cutover could never commit); otherwise a moving range
     * stays {@code MIGRATING} whatever state is asked.
     *
     * @param rangeId            the range
     * @param expectedEpoch      its epoch when the change was decided
     * @param expectedGeneration its generation when the change was decided
     * @param owner              the owner
     * @param backups            the backups
     * @param state              the state
     */
    record ChangeRange(int rangeId, long expectedEpoch, long expectedGeneration, String owner, List<String> backups,
            RangeState state) implements MetaCommand {
    }

    /**
     * Moves a member to another state.
     *
     * @param nodeId   the member
     * @param expected the state it is expected in, or {@code null} for any
     * @param state    the new state
     */
    record SetMemberState(String nodeId, MemberState expected, MemberState state) implements MetaCommand {
    }

    /**
     * Adds a member to a running cluster (a node joining): it starts {@code JOINING} and owns nothing until ranges
     * move to it. Adding a member that is there already with the same role and address changes nothing (a joining
     * node that restarts asks again); one with the same id and another role or address is refused.
     *
     * @param member the new member
     */
    record AddMember(Member member) implements MetaCommand {
    }

    /**
     * Opens a new ledger for a range's writer. Refused unless the writer owns the range at the expected epoch and
     * every earlier ledger that may hold the range's keys is closed (a new writer recovers them first).
     *
     * @param rangeId       the range
     * @param expectedEpoch its epoch
     * @param writer        the writer (the range's owner)
     * @param ensemble      the log nodes of its first fragment
     */
    record OpenLedger(int rangeId, long expectedEpoch, String writer, List<String> ensemble) implements MetaCommand {
    }

    /**
     * Starts a new fragment of an open ledger on another ensemble (a log node lost, back, or replaced).
     *
     * @param ledgerId          the ledger
     * @param expectedFragments how many fragments the writer saw
     * @param firstEntry        the fragment's first entry: the first one not acknowledged yet
     * @param ensemble          its log nodes
     */
    record ChangeEnsemble(long ledgerId, int expectedFragments, long firstEntry, List<String> ensemble)
            implements MetaCommand {
    }

    /**
     * Freezes an open ledger for recovery by a new writer: its old writer can change its ensemble no more.
     *
     * @param ledgerId the ledger
     * @param by       the node that recovers it
     */
    record RecoverLedger(long ledgerId, String by) implements MetaCommand {
    }

    /**
     * Closes a ledger at its last entry (by its writer, or by a recovery); refused if it is closed already, naming
     * where, so every closer agrees on one last entry.
     *
     * @param ledgerId  the ledger
     * @param lastEntry its last entry (0: none)
     */
    record CloseLedger(long ledgerId, long lastEntry) implements MetaCommand {
    }

    /**
     * Forgets a closed ledger that nobody needs any more: its owner and the backups of its span hold all of it
     * durably, so no recovery, replay or catch-up reads it again. Refused for a ledger that is not closed; its id is
     * never given again.
     *
     * @param ledgerId the ledger
     */
    record DeleteLedger(long ledgerId) implements MetaCommand {
    }

    /**
     * Starts moving a range to another data node: records the migration (phase COPYING) and marks the range
     * MIGRATING; its owner goes on serving it. Refused unless the range is serving at the expected epoch and
     * generation, is not moving already, and the target is another data node that is up.
     *
     * @param rangeId            the range
     * @param expectedEpoch      its epoch when the move was decided
     * @param expectedGeneration its generation when the move was decided
     * @param target             the data node it moves to
     * @param rateBytes          the throttle in bytes per second (0: unthrottled)
     * @param startedBy          who decided it ({@code rules} or {@code admin})
     * @param backup             true to fill a backup copy on the target instead of moving the range (the range
     *                           must have no backup, or the one {@code replaces} names; the migration ends with
     *                           {@link AddBackup}); absent: a move
     * @param replaces           for a backup fill, the range's backup the target takes the place of once its copy
     *                           caught up (the old one keeps backing the range up until then); {@code null}: none
     */
    record StartMigration(int rangeId, long expectedEpoch, long expectedGeneration, String target, long rateBytes,
            String startedBy, boolean backup, String replaces) implements MetaCommand {

        /**
         * Starts a move, or the fill of a missing backup.
         *
         * @param rangeId            the range
         * @param expectedEpoch      its epoch when the move was decided
         * @param expectedGeneration its generation when the move was decided
         * @param target             the data node it moves to, or whose backup copy is filled
         * @param rateBytes          the throttle in bytes per second (0: unthrottled)
         * @param startedBy          who decided it
         * @param backup             true to fill a missing backup
         */
        public StartMigration(int rangeId, long expectedEpoch, long expectedGeneration, String target,
                long rateBytes, String startedBy, boolean backup) {
            this(rangeId, expectedEpoch, expectedGeneration, target, rateBytes, startedBy, backup, null);
        }

        /**
         * Starts a move.
         *
         * @param rangeId            the range
         * @param expectedEpoch      its epoch when the move was decided
         * @param expectedGeneration its generation when the move was decided
         * @param target             the data node it moves to
         * @param rateBytes          the throttle in bytes per second (0: unthrottled)
         * @param startedBy          who decided it
         */
        public StartMigration(int rangeId, long expectedEpoch, long expectedGeneration, String target,
                long rateBytes, String startedBy) {
            this(rangeId, expectedEpoch, expectedGeneration, target, rateBytes, startedBy, false, null);
        }
    }

    /**
     * Records how far a migration got, and moves it from COPYING to CATCHING_UP (never back, never to the cutover).
     *
     * @param migrationId   the migration
     * @param expectedPhase the phase it is expected in
     * @param phase         its phase now
     * @param keysCopied    keys copied so far
     * @param bytesCopied   bytes copied so far
     * @param resumeAfter   the last key the target holds durably, hex
     * @param copyRun       the target's copy run that made the record (refused unless it holds the copy)
     */
    record MigrationProgress(long migrationId, MigrationPhase expectedPhase, MigrationPhase phase, long keysCopied,
            long bytesCopied, String resumeAfter, long copyRun) implements MetaCommand {
    }

    /**
     * A run of a migration's target takes the copy over before it writes anything: refused unless the migration is
     * copying, {@code copyRun} is the next run, and the copy is recorded up to {@code resumeAfter} (what the run
     * read; {@code ""}: a fresh copy, whose run first deletes what an earlier run left).
     *
     * @param migrationId the migration
     * @param copyRun     the run's number
     * @param resumeAfter the key the run resumes after, hex, as it read it
     */
    record ClaimCopy(long migrationId, long copyRun, String resumeAfter) implements MetaCommand {
    }

    /**
     * Pauses or resumes a migration, or changes its throttle.
     *
     * @param migrationId the migration
     * @param paused      whether it is paused
     * @param rateBytes   the throttle in bytes per second (0: unthrottled)
     */
    record ControlMigration(long migrationId, boolean paused, long rateBytes) implements MetaCommand {
    }

    /**
     * The cutover: the target owns the range from the next epoch on (the range serves again), the migration goes to
     * CLEANING_UP. Refused unless the migration is catching up and the range is still at the epoch the migration
     * started at, so that it can never commit after another owner change, and unless every backup it names is one
     * of the range's backups still (one dropped meanwhile kept no copy up to date).
     *
     * @param migrationId the migration
     * @param backups     the range's backups from now on: some of its backups now, never the target
     * @param ensemble    the log nodes of the ledger the target writes from the new epoch on, opened by this same
     *                    change so that the target serves without a commit of its own; empty (or absent in an
     *                    older log) opens none, and the target opens one once the source's ledger is closed
     */
    record CutOver(long migrationId, List<String> backups, List<String> ensemble) implements MetaCommand {

        /** Copies the lists; an absent ensemble is empty. */
        public CutOver {
            backups = List.copyOf(backups);
            ensemble = ensemble == null ? List.of() : List.copyOf(ensemble);
        }
    }

    /**
     * The end of a backup fill: the target is the range's backup from now on (the log nodes catch it up from where
     * its copy is), the range serves as before and the migration is gone. Refused unless the migration is a backup
     * fill catching up, not paused, and the range is still at the epoch it started at.
     *
     * @param migrationId the migration
     */
    record AddBackup(long migrationId) implements MetaCommand {
    }

    /**
     * Ends a migration: once cleaned up (the source deleted its copy), or aborted before its cutover (the range
     * serves on its owner as before; the target deletes what it copied).
     *
     * @param migrationId the migration
     * @param abort       true to abort (refused after the cutover), false once it is cleaned up
     * @param reason      why, for the logs and events
     */
    record EndMigration(long migrationId, boolean abort, String reason) implements MetaCommand {
    }

    /**
     * Failover: the backup of a range whose owner failed owns it from the next epoch on, in state RECOVERING (it
     * takes the range over from its backup copy, recovers the old owner's ledger and waits out its lease before it
     * serves, then commits {@link RangeRecovered}). A copy under way to another node ends (its cutover could never
     * commit). Refused unless the range is at the expected epoch, its owner is failed, and the new owner is one of
     * its backups and up.
     *
     * @param rangeId       the range
     * @param expectedEpoch its epoch when the promotion was decided
     * @param newOwner      the backup that takes it over
     * @param reason        why, for the logs
     */
    record Promote(int rangeId, long expectedEpoch, String newOwner, String reason) implements MetaCommand {
    }

    /**
     * A promoted owner serves: its range goes from RECOVERING to SERVING. Refused unless the range is recovering at
     * the expected epoch.
     *
     * @param rangeId       the range
     * @param expectedEpoch its epoch
     */
    record RangeRecovered(int rangeId, long expectedEpoch) implements MetaCommand {
    }

    /**
     * Takes a failed (or leaving) data node off a range's backups: its copy is lost to the range, which a backup fill
     * replaces. Refused unless the node is one of the range's backups and is failed or leaving.
     *
     * @param rangeId the range
     * @param nodeId  the backup
     * @param reason  why, for the logs
     */
    record DropBackup(int rangeId, String nodeId, String reason) implements MetaCommand {
    }
}
