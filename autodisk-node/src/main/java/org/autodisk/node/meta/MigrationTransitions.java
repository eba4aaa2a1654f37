package org.autodisk.node.meta;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The migration part of the metadata's transitions (see {@link MetaTransitions}): start, progress, pause and throttle,
 * cut over, end. The cutover is one command that compares on the epoch the migration started at, so a migration can
 * never hand over a range that changed owner meanwhile, and two migrations of one range never run at once.
 */
final class MigrationTransitions {

    private MigrationTransitions() {
    }

    static MetaTransitions.Outcome start(MetaState s, long index, MetaCommand.StartMigration c) {
        RangeDescriptor r = s.range(c.rangeId());
        MigrationInfo moving = r == null ? null : s.migrationOf(r.id());
        String problem = r == null ? "there is no range " + c.rangeId()
                : moving != null ? "range " + r.id() + " is already moving to " + moving.target() + " (migration "
                        + moving.id() + ", " + phase(moving) + ")"
                : r.epoch() != c.expectedEpoch() || r.generation() != c.expectedGeneration() ? "range " + r.id()
                        + " was expected at epoch " + c.expectedEpoch() + ", generation " + c.expectedGeneration()
                        + " but is at epoch " + r.epoch() + ", generation " + r.generation() + ": " + r
                : r.state() != RangeState.SERVING ? r + " is not serving"
                : r.logNodes().isEmpty() ? r + " has no log nodes: a migration's target catches up from the range's "
                        + "ledgers"
                : c.rateBytes() < MigrationInfo.DEFAULT_RATE ? "a rate must not be negative (got " + c.rateBytes()
                        + " bytes/s)"
                : targetProblem(s, r, c.target());
        if (problem == null && c.backup()) {
            problem = fillProblem(s, r, c.target(), c.replaces());
        } else if (problem == null && c.replaces() != null) {
            problem = "a move replaces no backup (replaces " + c.replaces() + " goes with a backup fill)";
        }
        if (problem != null) {
            return refused(s, (c.backup() ? "backup fill refused: " : "migration refused: ") + problem);
        }
        MigrationInfo m = new MigrationInfo(s.nextMigrationId(), r.id(), r.owner(), c.target(), r.epoch(),
                MigrationPhase.COPYING, false, c.rateBytes(), 0, 0, "", c.startedBy(), c.backup(), 0, c.replaces());
        List<MigrationInfo> migrations = new ArrayList<>(s.migrations());
        migrations.add(m);
        List<RangeDescriptor> ranges = replaced(s, r, r.in(RangeState.MIGRATING));
        return new MetaTransitions.Outcome(s.withMigrations(index, ranges, migrations, m.id() + 1),
                CommandResult.appliedToMigration(index, r.id(), m.id()));
    }

    private static String targetProblem(MetaState s, RangeDescriptor r, String target) {
        Member m = target == null ? null : s.member(target);
        if (m == null) {
            return "there is no member " + target;
        }
        if (!"data".equals(m.role())) {
            return target + " is a " + m.role() + " node; ranges move to data nodes only";
        }
        if (target.equals(r.owner())) {
            return target + " owns " + r + " already";
        }
        return m.state() != MemberState.UP ? target + " is " + m.state().name().toLowerCase() + ", not up" : null;
    }

    /**
     * Why a data node cannot take a backup fill of a range: the range has a backup already (one is caught up per
     * range) other than the one the fill replaces, or the node backs up another range that shares a ledger with this
     * one, or is being filled as its backup (a backup copy keeps one position per ledger, which the fill's snapshot
     * would overwrite for the other range too; the sharing ends once the shared ledger is deleted).
     */
    private static String fillProblem(MetaState s, RangeDescriptor r, String target, String replaces) {
        String backups = backupsProblem(r, target, replaces);
        if (backups != null) {
            return backups;
        }
        for (RangeDescriptor other : s.ranges()) {
            MigrationInfo filling = s.migrationOf(other.id());
            boolean fills = filling != null && filling.backup() && filling.target().equals(target);
            if (other.id() == r.id() || !other.backups().contains(target) && !fills) {
                continue;
            }
            for (LedgerInfo l : s.ledgersOf(r)) {
                if (l.overlaps(other.low(), other.high())) {
                    return target + (fills ? " is being filled as the backup of range " : " backs up range ")
                            + other.id() + ", which shares ledger " + l.id() + " with range " + r.id()
                            + "; choose another node, or wait until the ledger is deleted";
                }
            }
        }
        return null;
    }

    /** Why the range's backups do not let a fill (replacing {@code replaces}, or none) go on, or {@code null}. */
    private static String backupsProblem(RangeDescriptor r, String target, String replaces) {
        if (replaces == null) {
            return r.backups().isEmpty() ? null : r + " has a backup already: " + r.backups() + " (a fill that "
                    + "replaces it names it)";
        }
        if (r.backups().contains(target)) {
            return target + " backs up " + r + " already";
        }
        if (replaces.equals(target)) {
            return "a fill cannot replace its own target " + target;
        }
        return r.backups().equals(List.of(replaces)) ? null : "the fill replaces " + replaces + ", but the backups of "
                + r + " are " + r.backups();
    }

    static MetaTransitions.Outcome progress(MetaState s, long index, MetaCommand.MigrationProgress c) {
        MigrationInfo m = s.migration(c.migrationId());
        String problem = m == null ? noMigration(c.migrationId())
                : m.phase() != c.expectedPhase() ? "migration " + m.id() + " was expected " + name(c.expectedPhase())
                        + " but is " + phase(m)
                : c.phase() == MigrationPhase.CLEANING_UP || m.phase() == MigrationPhase.CLEANING_UP
                        || (m.phase() == MigrationPhase.CATCHING_UP && c.phase() == MigrationPhase.COPYING)
                        ? "a migration goes from copying to catching up only (" + phase(m) + " to " + name(c.phase())
                                + "); the cutover is its own command"
                : c.keysCopied() < 0 || c.bytesCopied() < 0 ? "progress must not be negative"
                : c.copyRun() != m.copyRun() ? "the record comes from copy run " + c.copyRun() + " of migration "
                        + m.id() + ", which copy run " + m.copyRun() + " holds now" : null;
        if (problem != null) {
            return refused(s, "migration progress refused: " + problem);
        }
        return changed(s, index, m.progressed(c.phase(), c.keysCopied(), c.bytesCopied(), c.resumeAfter()));
    }

    /**
     * A run of the target's copy takes the copy over: applied only if the migration is still copying, the run is the
     * next one, and the run read the resume key the metadata holds. From then on only this run's records apply, and
     * what the run found (a fresh copy, or one to resume after a key) is what the metadata says.
     */
    static MetaTransitions.Outcome claimCopy(MetaState s, long index, MetaCommand.ClaimCopy c) {
        MigrationInfo m = s.migration(c.migrationId());
        String problem = m == null ? noMigration(c.migrationId())
                : m.phase() != MigrationPhase.COPYING ? "migration " + m.id() + " is " + phase(m) + ", not copying"
                : c.copyRun() != m.copyRun() + 1 ? "copy run " + c.copyRun() + " is not the next after "
                        + m.copyRun()
                : !c.resumeAfter().equals(m.resumeAfter()) ? "the run would resume after key '" + c.resumeAfter()
                        + "' but the copy is recorded up to '" + m.resumeAfter() + "'" : null;
        if (problem != null) {
            return refused(s, "copy run refused: " + problem);
        }
        return changed(s, index, m.claimed(c.copyRun()));
    }

    static MetaTransitions.Outcome control(MetaState s, long index, MetaCommand.ControlMigration c) {
        MigrationInfo m = s.migration(c.migrationId());
        String problem = m == null ? noMigration(c.migrationId())
                : m.phase() == MigrationPhase.CLEANING_UP ? "migration " + m.id() + " has cut over; only its "
                        + "clean-up is left"
                : c.rateBytes() < 0 ? "a rate must not be negative (got " + c.rateBytes() + " bytes/s)" : null;
        if (problem != null) {
            return refused(s, "migration control refused: " + problem);
        }
        return changed(s, index, m.controlled(c.paused(), c.rateBytes()));
    }

    static MetaTransitions.Outcome cutOver(MetaState s, long index, MetaCommand.CutOver c) {
        MigrationInfo m = s.migration(c.migrationId());
        RangeDescriptor r = m == null ? null : s.range(m.rangeId());
        String problem = m == null ? noMigration(c.migrationId())
                : m.phase() != MigrationPhase.CATCHING_UP ? "migration " + m.id() + " is " + phase(m)
                        + "; the cutover follows catching up"
                : m.backup() ? "migration " + m.id() + " fills a backup; it ends with add-backup"
                : m.paused() ? "migration " + m.id() + " is paused"
                : r == null || r.epoch() != m.fromEpoch() ? movedOn(m, r)
                : backupProblem(s, m, c.backups());
        if (problem == null && !r.backups().containsAll(c.backups())) {
            // a backup dropped meanwhile (failed) holds no copy kept up; named again, a failover would promote it
            problem = "it names " + c.backups() + " as backups, but range " + r.id() + " has " + r.backups()
                    + " now; ask again";
        }
        if (problem == null && !c.ensemble().isEmpty()) {
            problem = LedgerTransitions.ensembleProblem(s, c.ensemble());
        }
        if (problem != null) {
            return refused(s, "cutover refused: " + problem);
        }
        RangeDescriptor moved = new RangeDescriptor(r.id(), r.low(), r.high(), m.target(), c.backups(), r.logNodes(),
                r.epoch() + 1, r.generation(), RangeState.SERVING);
        MigrationInfo cleaning = m.progressed(MigrationPhase.CLEANING_UP, m.keysCopied(), m.bytesCopied(),
                m.resumeAfter());
        MetaState cut = s.withMigrations(index, replaced(s, r, moved), replaced(s, cleaning), s.nextMigrationId());
        if (c.ensemble().isEmpty()) {
            return new MetaTransitions.Outcome(cut, CommandResult.cutOver(index, r.id(), m.id(), 0));
        }
        return new MetaTransitions.Outcome(withTargetLedger(cut, index, moved, c.ensemble()),
                CommandResult.cutOver(index, r.id(), m.id(), s.nextLedgerId()));
    }

    static MetaTransitions.Outcome addBackup(MetaState s, long index, MetaCommand.AddBackup c) {
        MigrationInfo m = s.migration(c.migrationId());
        RangeDescriptor r = m == null ? null : s.range(m.rangeId());
        String problem = m == null ? noMigration(c.migrationId())
                : !m.backup() ? "migration " + m.id() + " moves range " + m.rangeId() + "; it ends with a cutover"
                : m.phase() != MigrationPhase.CATCHING_UP ? "migration " + m.id() + " is " + phase(m)
                        + "; a backup is added once its copy catches up"
                : m.paused() ? "migration " + m.id() + " is paused"
                : r == null || r.epoch() != m.fromEpoch() ? movedOn(m, r)
                : r.owner().equals(m.target()) ? m.target() + " owns " + r
                : !r.backups().isEmpty() && !r.backups().equals(Collections.singletonList(m.replaces()))
                        ? r + " has a backup already: " + r.backups()
                : backupProblem(s, m, List.of());
        if (problem != null) {
            return refused(s, "adding a backup refused: " + problem);
        }
        RangeDescriptor backedUp = new RangeDescriptor(r.id(), r.low(), r.high(), r.owner(), List.of(m.target()),
                r.logNodes(), r.epoch(), r.generation(), RangeState.SERVING);
        List<MigrationInfo> migrations = new ArrayList<>(s.migrations());
        migrations.remove(m);
        return new MetaTransitions.Outcome(s.withMigrations(index, replaced(s, r, backedUp), migrations,
                s.nextMigrationId()), CommandResult.appliedToMigration(index, r.id(), m.id()));
    }

    private static String movedOn(MigrationInfo m, RangeDescriptor r) {
        return "range " + m.rangeId() + " moved on since migration " + m.id() + " started at epoch " + m.fromEpoch()
                + (r == null ? "" : ": " + r) + "; abort it";
    }

    /**
     * Opens the new owner's ledger at the new epoch beside the source's, which is still open: the target writes it
     * only once the source's is closed and applied (the range's ledgers are read in id order).
     */
    private static MetaState withTargetLedger(MetaState s, long index, RangeDescriptor moved, List<String> ensemble) {
        LedgerInfo opened = new LedgerInfo(s.nextLedgerId(), moved.id(), moved.low(), moved.high(), moved.epoch(),
                moved.owner(), List.of(new LedgerInfo.Fragment(1, ensemble)), LedgerState.OPEN, 0);
        List<LedgerInfo> ledgers = new ArrayList<>(s.ledgers());
        ledgers.add(opened);
        return s.withLedgers(index, ledgers, s.nextLedgerId() + 1);
    }

    private static String backupProblem(MetaState s, MigrationInfo m, List<String> backups) {
        Member target = s.member(m.target());
        if (target == null || target.state() == MemberState.FAILED || target.state() == MemberState.LEAVING) {
            return "the target " + m.target() + " is " + (target == null ? "gone" : target.state().name()
                    .toLowerCase());
        }
        for (String b : backups) {
            Member member = s.member(b);
            if (member == null || !"data".equals(member.role())) {
                return b + " is not a data node of the cluster";
            }
        }
        return backups.contains(m.target()) ? m.target() + " cannot be its own backup" : null;
    }

    static MetaTransitions.Outcome end(MetaState s, long index, MetaCommand.EndMigration c) {
        MigrationInfo m = s.migration(c.migrationId());
        String problem = m == null ? noMigration(c.migrationId())
                : c.abort() && m.phase() == MigrationPhase.CLEANING_UP ? "migration " + m.id() + " has cut over: "
                        + "it can only be finished"
                : !c.abort() && m.phase() != MigrationPhase.CLEANING_UP ? "migration " + m.id() + " is " + phase(m)
                        + ": it ends after its cutover, or is aborted"
                : null;
        if (problem != null) {
            return refused(s, "ending a migration refused: " + problem);
        }
        List<MigrationInfo> migrations = new ArrayList<>(s.migrations());
        migrations.remove(m);
        RangeDescriptor r = s.range(m.rangeId());
        List<RangeDescriptor> ranges = c.abort() && r != null && r.state() == RangeState.MIGRATING
                ? replaced(s, r, r.in(RangeState.SERVING)) : s.ranges();
        return new MetaTransitions.Outcome(s.withMigrations(index, ranges, migrations, s.nextMigrationId()),
                CommandResult.appliedToMigration(index, m.rangeId(), m.id()));
    }

    private static MetaTransitions.Outcome changed(MetaState s, long index, MigrationInfo m) {
        return new MetaTransitions.Outcome(s.withMigrations(index, s.ranges(), replaced(s, m), s.nextMigrationId()),
                CommandResult.appliedToMigration(index, m.rangeId(), m.id()));
    }

    private static List<RangeDescriptor> replaced(MetaState s, RangeDescriptor old, RangeDescriptor now) {
        List<RangeDescriptor> ranges = new ArrayList<>(s.ranges());
        ranges.set(ranges.indexOf(old), now);
        return ranges;
    }

    private static List<MigrationInfo> replaced(MetaState s, MigrationInfo now) {
        List<MigrationInfo> migrations = new ArrayList<>(s.migrations());
        migrations.replaceAll(m -> m.id() == now.id() ? now : m);
        return migrations;
    }

    private static String noMigration(long id) {
        return "there is no migration " + id + " under way";
    }

    private static String phase(MigrationInfo m) {
        return name(m.phase());
    }

    private static String name(MigrationPhase p) {
        return p == null ? "in no phase" : p.name().toLowerCase().replace('_', ' ');
    }

    private static MetaTransitions.Outcome refused(MetaState s, String why) {
        return new MetaTransitions.Outcome(s, CommandResult.refused(s.version(), why));
    }
}
