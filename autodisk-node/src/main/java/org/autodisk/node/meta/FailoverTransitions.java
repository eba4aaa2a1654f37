package org.autodisk.node.meta;

import java.util.ArrayList;
import java.util.List;

/**
 * The failover part of the metadata's transitions (see {@link MetaTransitions}): a failed owner's range is promoted
 * to its backup (epoch + 1, compared on the epoch the promotion was decided at, so two promotions of one range never
 * both commit), the promoted owner says when it serves, and a failed backup is taken off a range.
 */
final class FailoverTransitions {

    private FailoverTransitions() {
    }

    static MetaTransitions.Outcome promote(MetaState s, long index, MetaCommand.Promote c) {
        RangeDescriptor r = s.range(c.rangeId());
        MigrationInfo moving = r == null ? null : s.migrationOf(r.id());
        String owner = r == null ? null : ownerProblem(s, r);
        String problem = r == null ? "there is no range " + c.rangeId()
                : r.epoch() != c.expectedEpoch() ? "range " + r.id() + " was expected at epoch " + c.expectedEpoch()
                        + " but is at epoch " + r.epoch() + ": " + r
                : owner != null ? owner
                : !r.backups().contains(c.newOwner()) ? c.newOwner() + " is not a backup of " + r + " (backups "
                        + r.backups() + ")"
                : newOwnerProblem(s, c.newOwner());
        if (problem == null && moving != null && moving.phase() == MigrationPhase.CLEANING_UP
                && moving.source().equals(c.newOwner())) {
            problem = c.newOwner() + " is deleting its copy of range " + r.id() + " after migration " + moving.id();
        }
        if (problem != null) {
            return refused(s, "promotion refused: " + problem);
        }
        List<String> backups = new ArrayList<>(r.backups());
        backups.remove(c.newOwner());
        RangeDescriptor promoted = new RangeDescriptor(r.id(), r.low(), r.high(), c.newOwner(), backups,
                r.logNodes(), r.epoch() + 1, r.generation(), RangeState.RECOVERING);
        List<RangeDescriptor> ranges = replaced(s, r, promoted);
        if (moving != null && moving.phase() != MigrationPhase.CLEANING_UP) {
            // its cutover compares on the epoch it started at and could never commit: it ends here
            List<MigrationInfo> migrations = new ArrayList<>(s.migrations());
            migrations.remove(moving);
            return new MetaTransitions.Outcome(s.withMigrations(index, ranges, migrations, s.nextMigrationId()),
                    CommandResult.applied(index, List.of(r.id())));
        }
        return new MetaTransitions.Outcome(s.withRanges(index, ranges, s.nextRangeId()),
                CommandResult.applied(index, List.of(r.id())));
    }

    private static String ownerProblem(MetaState s, RangeDescriptor r) {
        Member owner = s.member(r.owner());
        if (owner != null && owner.state() != MemberState.FAILED) {
            return "its owner " + owner.id() + " is " + owner.state().name().toLowerCase() + "; only the range of a "
                    + "failed owner is promoted";
        }
        return r.logNodes().isEmpty() ? r + " has no log nodes: its backup cannot recover what the owner logged"
                : null;
    }

    private static String newOwnerProblem(MetaState s, String id) {
        Member m = s.member(id);
        if (m == null || !"data".equals(m.role())) {
            return id + " is not a data node of the cluster";
        }
        return m.state() != MemberState.UP ? id + " is " + m.state().name().toLowerCase() + ", not up" : null;
    }

    static MetaTransitions.Outcome recovered(MetaState s, long index, MetaCommand.RangeRecovered c) {
        RangeDescriptor r = s.range(c.rangeId());
        String problem = r == null ? "there is no range " + c.rangeId()
                : r.epoch() != c.expectedEpoch() ? "range " + r.id() + " was expected at epoch " + c.expectedEpoch()
                        + " but is at epoch " + r.epoch() + ": " + r
                : r.state() != RangeState.RECOVERING ? r + " is not recovering" : null;
        if (problem != null) {
            return refused(s, "recovered refused: " + problem);
        }
        return new MetaTransitions.Outcome(s.withRanges(index, replaced(s, r, r.in(RangeState.SERVING)),
                s.nextRangeId()), CommandResult.applied(index, List.of(r.id())));
    }

    static MetaTransitions.Outcome dropBackup(MetaState s, long index, MetaCommand.DropBackup c) {
        RangeDescriptor r = s.range(c.rangeId());
        Member m = s.member(c.nodeId());
        String problem = r == null ? "there is no range " + c.rangeId()
                : !r.backups().contains(c.nodeId()) ? c.nodeId() + " is not a backup of " + r
                : m != null && m.state() != MemberState.FAILED && m.state() != MemberState.LEAVING ? c.nodeId()
                        + " is " + m.state().name().toLowerCase() + "; only a failed or leaving backup is dropped"
                : null;
        if (problem != null) {
            return refused(s, "dropping a backup refused: " + problem);
        }
        List<String> backups = new ArrayList<>(r.backups());
        backups.remove(c.nodeId());
        RangeDescriptor dropped = new RangeDescriptor(r.id(), r.low(), r.high(), r.owner(), backups, r.logNodes(),
                r.epoch(), r.generation(), r.state());
        return new MetaTransitions.Outcome(s.withRanges(index, replaced(s, r, dropped), s.nextRangeId()),
                CommandResult.applied(index, List.of(r.id())));
    }

    private static List<RangeDescriptor> replaced(MetaState s, RangeDescriptor old, RangeDescriptor now) {
        List<RangeDescriptor> ranges = new ArrayList<>(s.ranges());
        ranges.set(ranges.indexOf(old), now);
        return ranges;
    }

    private static MetaTransitions.Outcome refused(MetaState s, String why) {
        return new MetaTransitions.Outcome(s, CommandResult.refused(s.version(), why));
    }
}
