package org.autodisk.node.meta;

import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.Keys;

/**
 * The metadata's state transitions: a pure function from a state, a log index and a command to the next state and
 * the command's result. Every replica applies the same committed commands in the same order and so reaches the
 * same state; a command whose expectations do not hold changes nothing and says what it found.
 */
public final class MetaTransitions {

    /** The most data nodes a Fat-Btree cluster numbers (a change's number keeps its node's position in one byte). */
    static final int MAX_FAT_BTREE_DATA_NODES = 256;

    private MetaTransitions() {
    }

    /**
     * A state and what the command did.
     *
     * @param state  the state after the command (the same state if refused)
     * @param result the command's result
     */
    public record Outcome(MetaState state, CommandResult result) {
    }

    /**
     * Applies one committed command.
     *
     * @param s     the state before
     * @param index the command's log index (the new version if it applies)
     * @param c     the command
     * @return the outcome
     */
    public static Outcome apply(MetaState s, long index, MetaCommand c) {
        if (c instanceof MetaCommand.Bootstrap b) {
            return bootstrap(s, index, b);
        }
        if (!s.bootstrapped()) {
            return refused(s, "the cluster metadata is not bootstrapped yet");
        }
        return switch (c) {
            case MetaCommand.Split split -> split(s, index, split);
            case MetaCommand.ChangeRange change -> changeRange(s, index, change);
            case MetaCommand.SetMemberState m -> memberState(s, index, m);
            case MetaCommand.AddMember a -> addMember(s, index, a);
            case MetaCommand.OpenLedger o -> LedgerTransitions.open(s, index, o);
            case MetaCommand.ChangeEnsemble e -> LedgerTransitions.changeEnsemble(s, index, e);
            case MetaCommand.RecoverLedger r -> LedgerTransitions.recover(s, index, r);
            case MetaCommand.CloseLedger cl -> LedgerTransitions.close(s, index, cl);
            case MetaCommand.DeleteLedger d -> LedgerTransitions.delete(s, index, d);
            case MetaCommand.StartMigration m -> MigrationTransitions.start(s, index, m);
            case MetaCommand.MigrationProgress p -> MigrationTransitions.progress(s, index, p);
            case MetaCommand.ClaimCopy cc -> MigrationTransitions.claimCopy(s, index, cc);
            case MetaCommand.ControlMigration m -> MigrationTransitions.control(s, index, m);
            case MetaCommand.CutOver co -> MigrationTransitions.cutOver(s, index, co);
            case MetaCommand.AddBackup ab -> MigrationTransitions.addBackup(s, index, ab);
            case MetaCommand.EndMigration e -> MigrationTransitions.end(s, index, e);
            case MetaCommand.Promote p -> FailoverTransitions.promote(s, index, p);
            case MetaCommand.RangeRecovered rr -> FailoverTransitions.recovered(s, index, rr);
            case MetaCommand.DropBackup db -> FailoverTransitions.dropBackup(s, index, db);
            case MetaCommand.Bootstrap b -> bootstrap(s, index, b);
        };
    }

    private static Outcome refused(MetaState s, String why) {
        return new Outcome(s, CommandResult.refused(s.version(), why));
    }

    private static Outcome bootstrap(MetaState s, long index, MetaCommand.Bootstrap b) {
        if (s.bootstrapped()) {
            return refused(s, "the cluster was created already (metadata version " + s.version() + "); a bootstrap "
                    + "applies once");
        }
        String problem = tiling(b.ranges());
        if (problem != null) {
            return refused(s, "bootstrap refused: " + problem);
        }
        int next = b.ranges().stream().mapToInt(RangeDescriptor::id).max().orElse(-1) + 1;
        MetaState created = new MetaState(index, b.directory(), b.members(), b.ranges(), next, b.created());
        return new Outcome(created, CommandResult.applied(index, b.ranges().stream().map(RangeDescriptor::id)
                .toList()));
    }

    /**
     * Checks that ranges tile the key space: the first starts at the empty key, each starts where the one before
     * ends, the last is open-ended.
     *
     * @param ranges ranges in key order
     * @return what is wrong, or {@code null}
     */
    static String tiling(List<RangeDescriptor> ranges) {
        if (ranges.isEmpty() || ranges.get(0).low().length != 0 || ranges.get(ranges.size() - 1).high() != null) {
            return "ranges must start at the empty key and end open";
        }
        for (int i = 1; i < ranges.size(); i++) {
            byte[] prevHigh = ranges.get(i - 1).high();
            if (prevHigh == null || Keys.compare(prevHigh, ranges.get(i).low()) != 0
                    || Keys.compare(ranges.get(i).low(), ranges.get(i - 1).low()) <= 0) {
                return "ranges " + ranges.get(i - 1).id() + " and " + ranges.get(i).id() + " do not meet";
            }
        }
        return null;
    }

    private static Outcome split(MetaState s, long index, MetaCommand.Split c) {
        RangeDescriptor r = s.range(c.rangeId());
        String problem = r == null ? "there is no range " + c.rangeId()
                : r.generation() != c.expectedGeneration() ? "range " + r.id() + " was expected at generation "
                        + c.expectedGeneration() + " but is at generation " + r.generation() + ": " + r
                : r.state() != RangeState.SERVING ? r + " is not serving"
                : splitKeyProblem(r, c.at());
        if (problem != null) {
            return refused(s, "split refused: " + problem);
        }
        List<RangeDescriptor> halves = r.split(c.at(), s.nextRangeId());
        List<RangeDescriptor> ranges = new ArrayList<>(s.ranges());
        int at = ranges.indexOf(r);
        ranges.set(at, halves.get(0));
        ranges.add(at + 1, halves.get(1));
        MetaState next = LedgerTransitions.openForHalves(s.withRanges(index, ranges, s.nextRangeId() + 1), index,
                halves, c);
        return new Outcome(next, CommandResult.applied(index, List.of(r.id(), s.nextRangeId())));
    }

    private static String splitKeyProblem(RangeDescriptor r, byte[] at) {
        if (at == null || at.length == 0) {
            return "a split key must not be empty";
        }
        int low = Keys.compare(at, r.low());
        int high = r.high() == null ? -1 : Keys.compare(at, r.high());
        if (low == 0 || high == 0) {
            return "'" + Keys.render(at) + "' is already a boundary of " + r + ": a split there would leave an empty "
                    + "range";
        }
        return low < 0 || high > 0 ? "key '" + Keys.render(at) + "' is not in " + r : null;
    }

    private static Outcome changeRange(MetaState s, long index, MetaCommand.ChangeRange c) {
        RangeDescriptor r = s.range(c.rangeId());
        String problem = r == null ? "there is no range " + c.rangeId()
                : r.epoch() != c.expectedEpoch() || r.generation() != c.expectedGeneration() ? "range " + r.id()
                        + " was expected at epoch " + c.expectedEpoch() + ", generation " + c.expectedGeneration()
                        + " but is at epoch " + r.epoch() + ", generation " + r.generation() + ": " + r
                : memberProblem(s, c.owner(), c.backups());
        MigrationInfo moving = r == null ? null : s.migrationOf(r.id());
        if (problem == null && moving != null && moving.phase() == MigrationPhase.CLEANING_UP
                && moving.source().equals(c.owner()) && !r.owner().equals(c.owner())) {
            problem = c.owner() + " is deleting its copy of range " + r.id() + " after migration " + moving.id()
                    + "; it cannot own the range until the migration ends";
        }
        if (problem != null) {
            return refused(s, "range change refused: " + problem);
        }
        boolean newOwner = !r.owner().equals(c.owner());
        boolean copying = moving != null && moving.phase() != MigrationPhase.CLEANING_UP;
        RangeDescriptor changed = new RangeDescriptor(r.id(), r.low(), r.high(), c.owner(), c.backups(),
                r.logNodes(), newOwner ? r.epoch() + 1 : r.epoch(), r.generation(),
                copying && !newOwner ? RangeState.MIGRATING : c.state());
        List<RangeDescriptor> ranges = new ArrayList<>(s.ranges());
        ranges.set(ranges.indexOf(r), changed);
        if (copying && newOwner) {
            // the migration's cutover could never commit (it compares on the epoch it started at): it ends here
            List<MigrationInfo> migrations = new ArrayList<>(s.migrations());
            migrations.remove(moving);
            return new Outcome(s.withMigrations(index, ranges, migrations, s.nextMigrationId()),
                    CommandResult.applied(index, List.of(r.id())));
        }
        return new Outcome(s.withRanges(index, ranges, s.nextRangeId()),
                CommandResult.applied(index, List.of(r.id())));
    }

    private static String memberProblem(MetaState s, String owner, List<String> backups) {
        for (String id : concat(owner, backups)) {
            Member m = s.member(id);
            if (m == null || !"data".equals(m.role())) {
                return id + " is not a data node of the cluster";
            }
        }
        return backups.contains(owner) ? owner + " cannot be its own backup" : null;
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    private static Outcome memberState(MetaState s, long index, MetaCommand.SetMemberState c) {
        Member m = s.member(c.nodeId());
        if (m == null) {
            return refused(s, "there is no member " + c.nodeId());
        }
        if (c.expected() != null && m.state() != c.expected()) {
            return refused(s, "member " + m.id() + " was expected " + c.expected() + " but is " + m.state());
        }
        List<Member> members = new ArrayList<>(s.members());
        members.set(members.indexOf(m), m.in(c.state()));
        return new Outcome(s.withMembers(index, members),
                CommandResult.applied(index, List.of()));
    }

    private static Outcome addMember(MetaState s, long index, MetaCommand.AddMember c) {
        Member m = c.member();
        Member known = s.member(m.id());
        if (known != null) {
            boolean same = known.role().equals(m.role()) && known.address().equals(m.address());
            return same ? new Outcome(s, CommandResult.applied(s.version(), List.of())) : refused(s, "there is a "
                    + "member " + known.id() + " already, a " + known.role() + " node at " + known.address() + " ("
                    + known.state() + "); a joining node needs a new id");
        }
        if (!"data".equals(m.role())) {
            return refused(s, "only a data node joins a running cluster; " + m.id() + " is a " + m.role() + " node");
        }
        if ("fat-btree".equals(s.directory()) && s.members().stream().filter(x -> "data".equals(x.role())).count()
                >= MAX_FAT_BTREE_DATA_NODES) {
            return refused(s, "a cluster whose directory is fat-btree has at most " + MAX_FAT_BTREE_DATA_NODES
                    + " data nodes, counting every one that ever joined (their positions number the index changes)");
        }
        List<Member> members = new ArrayList<>(s.members());
        members.add(m.in(MemberState.JOINING));
        return new Outcome(s.withMembers(index, members), CommandResult.applied(index, List.of()));
    }
}
