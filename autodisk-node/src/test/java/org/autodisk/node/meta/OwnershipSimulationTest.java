package org.autodisk.node.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.autodisk.core.Keys;
import org.junit.jupiter.api.Test;

/**
 * A seeded simulation of the metadata's ownership changes: administrators, migration targets, range owners and a
 * failover all decide commands from stale views of the metadata (any of the last few versions, so commands arrive
 * late, twice and out of order) — starts, progress, pauses, aborts, cutovers that open the target's ledger or not,
 * ends, splits, owner changes, ledger opens, recoveries and closes, members failing and returning, promotions of a
 * failed owner's range to its backup, recoveries of a promoted range, dropped backups — and every state the commands
 * lead to is checked:
 * one owner per range and epoch over the whole history, every ledger written by its range's owner at its epoch, at
 * most one unclosed ledger per range and epoch, migrations consistent with their range, refusals changing nothing.
 */
class OwnershipSimulationTest {

    private static final int SEEDS = 300;
    private static final int STEPS = 400;
    /** How many versions back a view may lag. */
    private static final int STALENESS = 6;
    private static final List<String> DATA = List.of("d1", "d2", "d3");

    @Test
    void noScheduleOfStaleCommandsGivesARangeTwoOwnersAtOneEpochOrALedgerToANonOwner() {
        Map<String, Integer> applied = new java.util.TreeMap<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            new Run(seed, applied).run();
        }
        assertThat(applied).as("the schedules applied every kind of change many times")
                .containsKeys("CutOver+ledger", "CutOver", "Split+ledger", "Split", "ChangeRange", "StartMigration",
                        "CloseLedger", "OpenLedger", "EndMigration", "Promote", "RangeRecovered", "DropBackup",
                        "SetMemberState")
                .allSatisfy((kind, n) -> assertThat(n).as(kind)
                        .isGreaterThan(SEEDS / 10));
    }

    /** One schedule. */
    private static final class Run {

        private final long seed;
        private final Random random;
        private final List<MetaState> history = new ArrayList<>();
        /** Range id and epoch → the owner it had, over the whole history. */
        private final Map<String, String> owners = new HashMap<>();
        private final Map<String, Integer> applied;

        Run(long seed, Map<String, Integer> applied) {
            this.seed = seed;
            this.applied = applied;
            this.random = new Random(seed);
            history.add(MetaTransitions.apply(MetaState.EMPTY, 1, MetaTransitionsTest.bootstrap()).state());
        }

        void run() {
            record(history.get(0), "bootstrap");
            for (int step = 0; step < STEPS; step++) {
                MetaState now = history.get(history.size() - 1);
                MetaState view = history.get(Math.max(0, history.size() - 1 - random.nextInt(STALENESS)));
                MetaCommand c = command(view);
                if (c == null) {
                    continue;
                }
                MetaTransitions.Outcome o = MetaTransitions.apply(now, now.version() + 1, c);
                String where = "seed " + seed + ", step " + step + ", " + c;
                if (!o.result().applied()) {
                    assertThat(o.state()).as("a refusal changes nothing: " + where).isSameAs(now);
                    continue;
                }
                applied.merge(c.getClass().getSimpleName() + (c instanceof MetaCommand.CutOver co
                        && !co.ensemble().isEmpty() || c instanceof MetaCommand.Split sp && !sp.ensemble().isEmpty()
                        ? "+ledger" : ""), 1, Integer::sum);
                history.add(o.state());
                record(o.state(), where);
            }
        }

        private MetaCommand command(MetaState v) {
            RangeDescriptor r = v.ranges().get(random.nextInt(v.ranges().size()));
            MigrationInfo m = v.migrations().isEmpty() ? null : v.migrations().get(random.nextInt(
                    v.migrations().size()));
            List<LedgerInfo> unclosed = v.ledgersOf(r).stream().filter(l -> l.state() != LedgerState.CLOSED).toList();
            return switch (random.nextInt(16)) {
                case 0, 1 -> new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), dataNode(), 0,
                        "admin");
                case 2, 3 -> m == null ? null : progress(m);
                case 4, 5 -> m == null ? null : new MetaCommand.CutOver(m.id(), List.of(), random.nextBoolean()
                        ? List.of("l1") : List.of());
                case 6 -> m == null ? null : random.nextBoolean() ? new MetaCommand.ControlMigration(m.id(),
                        !m.paused(), 0) : new MetaCommand.EndMigration(m.id(), random.nextBoolean(), "sim");
                case 7 -> new MetaCommand.OpenLedger(r.id(), r.epoch(), r.owner(), List.of("l1"));
                case 8 -> unclosed.isEmpty() ? null : random.nextBoolean()
                        ? new MetaCommand.CloseLedger(unclosed.get(0).id(), random.nextInt(50))
                        : new MetaCommand.RecoverLedger(unclosed.get(0).id(), r.owner());
                case 9 -> changeRange(r);
                case 10 -> new MetaCommand.Split(r.id(), r.generation(), Keys.utf8(Character.toString('a'
                        + random.nextInt(26)) + random.nextInt(100)), random.nextBoolean() ? List.of("l1")
                        : List.of(), 1 + random.nextInt(2));
                case 11 -> m == null ? null : new MetaCommand.EndMigration(m.id(), false, "cleaned up");
                case 12 -> new MetaCommand.SetMemberState(dataNode(), null, random.nextInt(3) == 0 ? MemberState.UP
                        : MemberState.FAILED);
                case 13 -> new MetaCommand.Promote(r.id(), r.epoch(), r.backup() == null || random.nextInt(4) == 0
                        ? dataNode() : r.backup(), "sim");
                case 14 -> new MetaCommand.RangeRecovered(r.id(), r.epoch());
                default -> new MetaCommand.DropBackup(r.id(), dataNode(), "sim");
            };
        }

        private MetaCommand changeRange(RangeDescriptor r) {
            String owner = dataNode();
            String backup = dataNode();
            return new MetaCommand.ChangeRange(r.id(), r.epoch(), r.generation(), owner, backup.equals(owner)
                    ? List.of() : List.of(backup), RangeState.SERVING);
        }

        private MetaCommand progress(MigrationInfo m) {
            MigrationPhase next = random.nextBoolean() ? MigrationPhase.CATCHING_UP : MigrationPhase.COPYING;
            if (random.nextInt(3) == 0) {
                return new MetaCommand.ClaimCopy(m.id(), m.copyRun() + 1, m.resumeAfter());
            }
            return new MetaCommand.MigrationProgress(m.id(), m.phase(), next, m.keysCopied() + 1, m.bytesCopied()
                    + 100, m.resumeAfter() + "00", m.copyRun());
        }

        private String dataNode() {
            return DATA.get(random.nextInt(DATA.size()));
        }

        /** Checks a state and adds its owners to the history. */
        private void record(MetaState s, String where) {
            for (RangeDescriptor r : s.ranges()) {
                String key = r.id() + "@" + r.epoch();
                String before = owners.putIfAbsent(key, r.owner());
                assertThat(before == null ? r.owner() : before).as("one owner of range %d at epoch %d: %s", r.id(),
                        r.epoch(), where).isEqualTo(r.owner());
                checkLedgers(s, r, where);
                checkMigration(s, r, where);
            }
            for (LedgerInfo l : s.ledgers()) {
                assertThat(l.writer()).as("%s is written by the owner of range %d at epoch %d: %s", l, l.rangeId(),
                        l.epoch(), where).isEqualTo(owners.get(l.rangeId() + "@" + l.epoch()));
            }
        }

        /**
         * A range has at most one unclosed ledger of its own span or within it per epoch (the one its owner writes);
         * a split opens the halves' ledgers beside the range's, which its writer closes, so one over a larger span
         * may be unclosed beside it.
         */
        private static void checkLedgers(MetaState s, RangeDescriptor r, String where) {
            Map<Long, Long> unclosedAtEpoch = new HashMap<>();
            for (LedgerInfo l : s.ledgersOf(r)) {
                if (l.state() != LedgerState.CLOSED) {
                    if (within(l, r)) {
                        unclosedAtEpoch.merge(l.epoch(), 1L, Long::sum);
                    }
                    assertThat(l.epoch()).as("%s: no ledger of %s from a later epoch: %s", l, r, where)
                            .isLessThanOrEqualTo(r.epoch());
                }
            }
            assertThat(unclosedAtEpoch.values()).as("unclosed ledgers per epoch of %s: %s", r, where)
                    .allSatisfy(n -> assertThat(n).isEqualTo(1L));
        }

        private static boolean within(LedgerInfo l, RangeDescriptor r) {
            return Keys.compare(l.low(), r.low()) >= 0 && (r.high() == null || l.high() != null
                    && Keys.compare(l.high(), r.high()) <= 0);
        }

        private static void checkMigration(MetaState s, RangeDescriptor r, String where) {
            assertThat(r.backups()).as("%s is no backup of its own: %s", r, where).doesNotContain(r.owner());
            MigrationInfo m = s.migrationOf(r.id());
            if (m == null) {
                assertThat(r.state()).as("%s without a migration: %s", r, where).isNotEqualTo(RangeState.MIGRATING);
                return;
            }
            if (m.phase() == MigrationPhase.CLEANING_UP) {
                assertThat(r.owner()).as("%s after the cutover of %s: %s", r, m, where).isNotEqualTo(m.source());
                assertThat(r.epoch()).as("%s after the cutover of %s: %s", r, m, where).isGreaterThan(m.fromEpoch());
            } else {
                assertThat(r.owner()).as("%s while %s copies: %s", r, m, where).isEqualTo(m.source());
                assertThat(r.epoch()).as("%s while %s copies: %s", r, m, where).isEqualTo(m.fromEpoch());
                assertThat(r.state()).as("%s while %s copies: %s", r, m, where).isEqualTo(RangeState.MIGRATING);
            }
        }
    }
}
