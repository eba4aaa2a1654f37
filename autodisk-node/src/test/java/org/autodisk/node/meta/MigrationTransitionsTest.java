package org.autodisk.node.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.meta.MetaTransitionsTest.apply;
import static org.autodisk.node.meta.MetaTransitionsTest.assertRefused;

import java.util.Arrays;
import java.util.List;
import org.autodisk.core.Keys;
import org.junit.jupiter.api.Test;

/**
 * Migration records in the metadata: a range moves by start, progress, cutover and end, each a committed command
 * that names what it expects; the cutover compares on the epoch the migration started at; bad commands change nothing
 * and say what they found.
 */
class MigrationTransitionsTest {

    static MetaState created() {
        return MetaTransitions.apply(MetaState.EMPTY, 1, MetaTransitionsTest.bootstrap()).state();
    }

    static MetaState applied(MetaState s, MetaCommand c) {
        MetaTransitions.Outcome o = apply(s, c);
        assertThat(o.result().applied()).as(String.valueOf(o.result().refusal())).isTrue();
        return o.state();
    }

    private static MetaCommand.StartMigration start(RangeDescriptor r, String target) {
        return new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), target, 0, "admin");
    }

    private static MetaCommand.MigrationProgress progress(long id, MigrationPhase from, MigrationPhase to) {
        return new MetaCommand.MigrationProgress(id, from, to, 10, 10_240, "6b39", 0);
    }

    @Test
    void aRangeMovesByStartProgressCutoverAndEndAndItsEpochRisesOnceAtTheCutover() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        MetaTransitions.Outcome started = apply(s, new MetaCommand.StartMigration(0, r.epoch(), r.generation(), "d3",
                1_000_000, "rules"));
        long id = started.result().migrationId();
        s = started.state();
        assertThat(id).isEqualTo(1);
        assertThat(s.range(0).state()).isEqualTo(RangeState.MIGRATING);
        assertThat(s.range(0).owner()).as("the source serves while copying").isEqualTo(r.owner());
        assertThat(s.migrationOf(0)).isEqualTo(new MigrationInfo(1, 0, r.owner(), "d3", r.epoch(),
                MigrationPhase.COPYING, false, 1_000_000, 0, 0, "", "rules", false, 0, null));

        s = applied(s, progress(id, MigrationPhase.COPYING, MigrationPhase.COPYING));
        s = applied(s, progress(id, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP));
        assertThat(s.migration(id).keysCopied()).isEqualTo(10);
        assertThat(s.migration(id).resumeAfter()).isEqualTo("6b39");
        s = applied(s, new MetaCommand.ControlMigration(id, true, 0));
        assertRefused(s, new MetaCommand.CutOver(id, List.of(), List.of()), "is paused");
        s = applied(s, new MetaCommand.ControlMigration(id, false, 0));
        assertThat(MetaCodec.read(MetaCodec.write(s), MetaState.class)).as("snapshots keep migrations").isEqualTo(s);

        assertRefused(s, new MetaCommand.CutOver(id, List.of(r.owner()), List.of()), "it names [" + r.owner()
                + "] as backups, but range 0 has " + r.backups() + " now");
        s = applied(s, new MetaCommand.CutOver(id, r.backups(), List.of()));
        RangeDescriptor moved = s.range(0);
        assertThat(moved.owner()).isEqualTo("d3");
        assertThat(moved.backups()).as("the backups stay").containsExactlyElementsOf(r.backups());
        assertThat(moved.epoch()).isEqualTo(r.epoch() + 1);
        assertThat(moved.state()).isEqualTo(RangeState.SERVING);
        assertThat(s.migration(id).phase()).isEqualTo(MigrationPhase.CLEANING_UP);

        s = applied(s, new MetaCommand.EndMigration(id, false, "source copy deleted"));
        assertThat(s.migrations()).isEmpty();
        assertThat(s.range(0).epoch()).as("ending changes no epoch").isEqualTo(r.epoch() + 1);
        MetaTransitions.Outcome again = apply(s, start(s.range(0), "d1"));
        assertThat(again.result().migrationId()).as("ids are never reused").isEqualTo(2);
    }

    @Test
    void aBadStartIsRefusedSayingWhatItFound() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        assertRefused(s, new MetaCommand.StartMigration(9, 1, 1, "d2", 0, "admin"), "there is no range 9");
        assertRefused(s, start(r, "l1"), "l1 is a log node; ranges move to data nodes only");
        assertRefused(s, start(r, r.owner()), r.owner() + " owns");
        assertRefused(s, start(r, "d9"), "there is no member d9");
        assertRefused(s, new MetaCommand.StartMigration(0, r.epoch() + 1, r.generation(), "d3", 0, "admin"),
                "was expected at epoch " + (r.epoch() + 1));
        assertRefused(s, new MetaCommand.StartMigration(0, r.epoch(), r.generation(), "d3", -5, "admin"),
                "must not be negative");
        MetaState suspected = applied(s, new MetaCommand.SetMemberState("d3", null, MemberState.SUSPECTED));
        assertRefused(suspected, start(suspected.range(0), "d3"), "d3 is suspected, not up");

        MetaState moving = applied(s, start(r, "d3"));
        assertRefused(moving, start(moving.range(0), "d2"), "already moving to d3 (migration 1, copying)");
        assertRefused(moving, new MetaCommand.Split(0, r.generation(), new byte[] {0x10}), "is not serving");
    }

    @Test
    void anotherOwnerChangeEndsAMigrationThatHasNotCutOverAndItsCutoverNeverCommits() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        s = applied(s, start(r, "d3"));
        s = applied(s, progress(1, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP));
        RangeDescriptor now = s.range(0);
        MetaState backupsOnly = applied(s, new MetaCommand.ChangeRange(0, now.epoch(), now.generation(), now.owner(),
                List.of("d2"), RangeState.SERVING));
        assertThat(backupsOnly.range(0).state()).as("a range that moves stays migrating").isEqualTo(
                RangeState.MIGRATING);
        assertThat(backupsOnly.migrationOf(0)).isNotNull();

        s = applied(s, new MetaCommand.ChangeRange(0, now.epoch(), now.generation(), "d2", List.of(),
                RangeState.SERVING));
        assertThat(s.migrations()).as("the owner change ended the migration").isEmpty();
        assertThat(s.range(0).owner()).isEqualTo("d2");
        assertThat(s.range(0).epoch()).isEqualTo(r.epoch() + 1);
        assertRefused(s, new MetaCommand.CutOver(1, List.of(), List.of()), "there is no migration 1 under way");
    }

    @Test
    void theSourceCannotOwnTheRangeAgainWhileItCleansUpItsCopy() {
        MetaState s = applied(created(), start(created().range(0), "d3"));
        s = applied(s, progress(1, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP));
        s = applied(s, new MetaCommand.CutOver(1, List.of(), List.of()));
        RangeDescriptor now = s.range(0);
        assertRefused(s, new MetaCommand.ChangeRange(0, now.epoch(), now.generation(), "d1", List.of(),
                RangeState.SERVING), "d1 is deleting its copy of range 0 after migration 1");
        s = applied(s, new MetaCommand.ChangeRange(0, now.epoch(), now.generation(), "d2", List.of(),
                RangeState.SERVING));
        assertThat(s.range(0).owner()).as("another node may take it over").isEqualTo("d2");
    }

    @Test
    void phasesOnlyMoveForwardAndACutOverMigrationCanOnlyBeFinished() {
        MetaState s = applied(created(), start(created().range(0), "d2"));
        assertRefused(s, new MetaCommand.CutOver(1, List.of(), List.of()),
                "is copying; the cutover follows catching up");
        assertRefused(s, progress(1, MigrationPhase.CATCHING_UP, MigrationPhase.CATCHING_UP),
                "was expected catching up but is copying");
        assertRefused(s, progress(1, MigrationPhase.COPYING, MigrationPhase.CLEANING_UP),
                "the cutover is its own command");
        assertRefused(s, new MetaCommand.MigrationProgress(1, MigrationPhase.COPYING, MigrationPhase.COPYING, -1, 0,
                "", 0), "must not be negative");
        s = applied(s, progress(1, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP));
        assertRefused(s, progress(1, MigrationPhase.CATCHING_UP, MigrationPhase.COPYING), "copying to catching up "
                + "only");
        assertRefused(s, new MetaCommand.CutOver(1, List.of("d2"), List.of()), "d2 cannot be its own backup");
        assertRefused(s, new MetaCommand.CutOver(1, List.of("l1"), List.of()), "l1 is not a data node");
        s = applied(s, new MetaCommand.CutOver(1, List.of(), List.of()));
        assertRefused(s, new MetaCommand.EndMigration(1, true, "changed my mind"), "it can only be finished");
        assertRefused(s, new MetaCommand.ControlMigration(1, true, 0), "only its clean-up is left");
        assertRefused(s, new MetaCommand.EndMigration(7, false, "?"), "there is no migration 7 under way");
    }

    @Test
    void aCutoverWithAnEnsembleOpensTheTargetsLedgerAtTheNewEpochBesideTheSourcesStillOpenOne() {
        MetaState s = applied(created(), start(created().range(0), "d2"));
        s = applied(s, progress(1, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP));
        RangeDescriptor r = s.range(0);
        s = applied(s, new MetaCommand.OpenLedger(0, r.epoch(), r.owner(), List.of("l1")));
        LedgerInfo source = s.ledgersOf(r).get(0);
        assertRefused(s, new MetaCommand.CutOver(1, List.of(), List.of("d3")), "d3 is not a log node");
        assertRefused(s, new MetaCommand.CutOver(1, List.of(), List.of("l1", "l1")), "names a log node twice");
        MetaTransitions.Outcome cut = apply(s, new MetaCommand.CutOver(1, List.of(), List.of("l1")));
        assertThat(cut.result().applied()).isTrue();
        LedgerInfo opened = cut.state().ledger(cut.result().ledgerId());
        assertThat(opened.id()).isGreaterThan(source.id());
        assertThat(opened.writer()).isEqualTo("d2");
        assertThat(opened.epoch()).isEqualTo(r.epoch() + 1).isEqualTo(cut.state().range(0).epoch());
        assertThat(opened.state()).isEqualTo(LedgerState.OPEN);
        assertThat(cut.state().ledger(source.id()).state()).as("the source closes its own").isEqualTo(LedgerState.OPEN);
        assertThat(apply(s, new MetaCommand.CutOver(1, List.of(), List.of())).result().ledgerId())
                .as("without an ensemble none is opened").isZero();
        assertThat(MetaCodec.read("{\"type\":\"cut-over\",\"migrationId\":1,\"backups\":[]}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8), MetaCommand.class))
                .as("a cutover logged before ensembles existed").isEqualTo(new MetaCommand.CutOver(1, List.of(),
                        List.of()));
    }

    @Test
    void migrationCommandsRoundTripThroughTheirJson() {
        MetaState s = created();
        List<MetaCommand> commands = List.of(start(s.range(0), "d2"),
                progress(1, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP),
                new MetaCommand.ControlMigration(1, true, 5), new MetaCommand.CutOver(1, List.of("d3"), List.of("l1")),
                new MetaCommand.EndMigration(1, true, "why"));
        for (MetaCommand c : commands) {
            assertThat(MetaCodec.read(MetaCodec.write(c), MetaCommand.class)).isEqualTo(c);
        }
    }

    private static MetaCommand.StartMigration fill(RangeDescriptor r, String target) {
        return new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), target, 0, "rules", true);
    }

    @Test
    void aBackupFillEndsWithItsTargetAsTheRangesBackupAndBadFillsAreRefused() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        assertRefused(s, fill(r, "d3"), "backup fill refused", "has a backup already: [d2]");
        s = applied(s, new MetaCommand.OpenLedger(0, r.epoch(), "d1", List.of("l1")));
        s = applied(s, new MetaCommand.ChangeRange(0, r.epoch(), r.generation(), "d1", List.of(),
                RangeState.SERVING));
        s = applied(s, new MetaCommand.Split(0, s.range(0).generation(), Keys.utf8("c")));
        RangeDescriptor lower = s.range(0);
        RangeDescriptor upper = s.ranges().stream().filter(x -> Arrays.equals(x.low(), Keys.utf8("c"))).findFirst()
                .orElseThrow();
        s = applied(s, new MetaCommand.ChangeRange(upper.id(), upper.epoch(), upper.generation(), "d1",
                List.of("d3"), RangeState.SERVING));
        assertRefused(s, fill(lower, "d1"), "d1 owns");
        assertRefused(s, fill(lower, "l1"), "l1 is a log node");
        assertRefused(s, fill(lower, "d3"), "d3 backs up range " + upper.id() + ", which shares ledger 1");

        long id = apply(s, fill(lower, "d2")).result().migrationId();
        s = applied(s, fill(lower, "d2"));
        assertThat(s.migration(id).backup()).isTrue();
        assertThat(s.range(0).state()).isEqualTo(RangeState.MIGRATING);
        assertRefused(s, fill(s.range(0), "d3"), "already moving");
        assertThat(MetaCodec.read(MetaCodec.write(s), MetaState.class)).as("snapshots keep the kind").isEqualTo(s);
        assertRefused(s, new MetaCommand.AddBackup(id), "is copying");
        s = applied(s, progress(id, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP));
        assertRefused(s, new MetaCommand.CutOver(id, List.of(), List.of()), "fills a backup");
        s = applied(s, new MetaCommand.ControlMigration(id, true, 0));
        assertRefused(s, new MetaCommand.AddBackup(id), "is paused");
        s = applied(s, new MetaCommand.ControlMigration(id, false, 0));

        s = applied(s, new MetaCommand.AddBackup(id));
        assertThat(s.range(0).backups()).containsExactly("d2");
        assertThat(s.range(0).owner()).isEqualTo("d1");
        assertThat(s.range(0).epoch()).as("a backup changes no epoch").isEqualTo(lower.epoch());
        assertThat(s.range(0).state()).isEqualTo(RangeState.SERVING);
        assertThat(s.migrations()).isEmpty();
        assertRefused(s, new MetaCommand.AddBackup(id), "no migration " + id);

        long move = apply(s, start(s.range(1), "d3")).result().migrationId();
        s = applied(s, start(s.range(1), "d3"));
        s = applied(s, progress(move, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP));
        assertRefused(s, new MetaCommand.AddBackup(move), "it ends with a cutover");
    }

    private static MetaCommand.StartMigration replacing(RangeDescriptor r, String target, String replaces) {
        return new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), target, 0, "rules", true, replaces);
    }

    /**
     * A fill may take the place of the range's backup (moving a backup off a full disk): the old backup stays the
     * range's backup until the new copy caught up, then the add swaps them in one command; a fill naming a backup the
     * range does not have, or its own target, is refused.
     */
    @Test
    void aFillReplacingTheBackupSwapsItOnlyWhenItsCopyCaughtUp() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        assertThat(r.backups()).containsExactly("d2");
        assertRefused(s, replacing(r, "d3", "d1"), "backup fill refused", "the fill replaces d1, but the backups of");
        assertRefused(s, replacing(r, "d2", "d2"), "d2 backs up");
        assertRefused(s, replacing(r, "d3", "d3"), "a fill cannot replace its own target d3");
        assertRefused(s, new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), "d3", 0, "rules", false,
                "d2"), "a move replaces no backup");
        long id = apply(s, replacing(r, "d3", "d2")).result().migrationId();
        s = applied(s, replacing(r, "d3", "d2"));
        assertThat(s.migration(id).replaces()).isEqualTo("d2");
        assertThat(s.range(0).backups()).as("the old backup backs the range up while the fill runs")
                .containsExactly("d2");
        assertThat(MetaCodec.read(MetaCodec.write(s), MetaState.class)).as("snapshots keep it").isEqualTo(s);
        s = applied(s, progress(id, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP));
        s = applied(s, new MetaCommand.AddBackup(id));
        assertThat(s.range(0).backups()).containsExactly("d3");
        assertThat(s.range(0).epoch()).isEqualTo(r.epoch());
        assertThat(s.migrations()).isEmpty();
        assertRefused(s, fill(s.range(0), "d2"), "has a backup already: [d3]");
    }

    /** The backup a fill replaces may be dropped meanwhile (it failed): the fill's target is then simply added. */
    @Test
    void aFillWhoseReplacedBackupWasDroppedMeanwhileIsAdded() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        long id = apply(s, replacing(r, "d3", "d2")).result().migrationId();
        s = applied(s, replacing(r, "d3", "d2"));
        s = applied(s, progress(id, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP));
        RangeDescriptor now = s.range(0);
        s = applied(s, new MetaCommand.ChangeRange(0, now.epoch(), now.generation(), now.owner(), List.of(),
                RangeState.MIGRATING));
        s = applied(s, new MetaCommand.AddBackup(id));
        assertThat(s.range(0).backups()).containsExactly("d3");
    }

    /** Old log entries and snapshots have no {@code replaces}: they read as fills that replace nothing. */
    @Test
    void aStartWithoutReplacesReadsAsReplacingNothing() {
        MetaCommand c = MetaCodec.read(("{\"type\":\"start-migration\",\"rangeId\":0,\"expectedEpoch\":1,"
                + "\"expectedGeneration\":1,\"target\":\"d3\",\"rateBytes\":0,\"startedBy\":\"rules\","
                + "\"backup\":true}").getBytes(java.nio.charset.StandardCharsets.UTF_8), MetaCommand.class);
        assertThat(c).isEqualTo(new MetaCommand.StartMigration(0, 1, 1, "d3", 0, "rules", true));
    }

    /**
     * Two fills of the halves of a split range into one node would share the parent's ledger in one backup copy: the
     * second fill's snapshot position would overwrite the first's (a review found the refusal counted only backups).
     */
    @Test
    void aFillIsRefusedWhileItsTargetIsFilledAsTheBackupOfARangeSharingALedger() {
        MetaState s = created();
        RangeDescriptor r = s.range(0);
        s = applied(s, new MetaCommand.OpenLedger(0, r.epoch(), "d1", List.of("l1")));
        s = applied(s, new MetaCommand.ChangeRange(0, r.epoch(), r.generation(), "d1", List.of(),
                RangeState.SERVING));
        s = applied(s, new MetaCommand.Split(0, s.range(0).generation(), Keys.utf8("c")));
        RangeDescriptor upper = s.ranges().stream().filter(x -> Arrays.equals(x.low(), Keys.utf8("c"))).findFirst()
                .orElseThrow();
        s = applied(s, fill(s.range(0), "d3"));
        assertRefused(s, fill(upper, "d3"), "d3 is being filled as the backup of range 0, which shares ledger 1");
        assertThat(apply(s, fill(upper, "d2")).result().applied()).as("another node").isTrue();
    }

    @Test
    void aCopyRunClaimsTheCopyAtTheRecordedKeyAndRecordsOfOtherRunsAreRefused() {
        MetaState s = applied(created(), start(created().range(0), "d2"));
        s = applied(s, new MetaCommand.ClaimCopy(1, 1, ""));
        s = applied(s, new MetaCommand.MigrationProgress(1, MigrationPhase.COPYING, MigrationPhase.COPYING, 5, 500,
                "10", 1));
        assertThat(s.migration(1).copyRun()).isEqualTo(1);
        assertRefused(s, new MetaCommand.ClaimCopy(1, 2, ""), "the run would resume after key '' but the copy is "
                + "recorded up to '10'");
        assertRefused(s, new MetaCommand.ClaimCopy(1, 1, "10"), "copy run 1 is not the next after 1");
        assertRefused(s, new MetaCommand.ClaimCopy(1, 3, "10"), "copy run 3 is not the next after 1");
        s = applied(s, new MetaCommand.ClaimCopy(1, 2, "10"));
        assertThat(s.migration(1).resumeAfter()).as("a claim keeps the record").isEqualTo("10");
        assertThat(s.migration(1).keysCopied()).isEqualTo(5);
        assertRefused(s, new MetaCommand.MigrationProgress(1, MigrationPhase.COPYING, MigrationPhase.COPYING, 9, 900,
                "20", 1), "the record comes from copy run 1 of migration 1, which copy run 2 holds now");
        s = applied(s, new MetaCommand.MigrationProgress(1, MigrationPhase.COPYING, MigrationPhase.CATCHING_UP, 9,
                900, "20", 2));
        assertRefused(s, new MetaCommand.ClaimCopy(1, 3, "20"), "is catching up, not copying");
        assertRefused(s, new MetaCommand.ClaimCopy(7, 1, ""), "no migration 7");
        assertThat(MetaCodec.read(MetaCodec.write(s), MetaState.class)).as("snapshots keep the run").isEqualTo(s);
    }
}
