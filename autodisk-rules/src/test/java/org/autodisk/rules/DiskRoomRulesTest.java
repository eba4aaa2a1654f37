package org.autodisk.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** balance.drl and the disks of the data nodes: no range or backup onto a disk that would be too full, and an alert. */
class DiskRoomRulesTest {

    /** Disks of 100,000 bytes; at most 90 % used: a node may fill its disk up to 10,000 bytes free. */
    private static final long DISK = 100_000;

    @Test
    void theNodeWithTheFewestBytesButAFullDiskIsPassedOver() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 3, 9000, 50_000), node("d2", 1, 1000, 5_000),
                    node("d3", 1, 2000, 60_000)), List.of(range(1, "d1", 5000), range(2, "d1", 3000),
                            range(3, "d1", 1000), range(4, "d2", 1000), range(5, "d3", 2000)), 0));
            assertThat(actions.calls).as("d2 is 95 % full; d3 is next; 3000 fits into (9000 - 2000) / 2")
                    .filteredOn(c -> c.startsWith("migrate")).containsExactly("migrate 2 d3");
        }
    }

    @Test
    void aRangeMovesOnlyIfTheTargetsDiskStaysBelowTheLimitAfterIt() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 3, 9000, 50_000), node("d2", 1, 1000, 11_500)),
                    List.of(range(1, "d1", 5000), range(2, "d1", 3000), range(3, "d1", 1000),
                            range(4, "d2", 1000)), 0));
            assertThat(actions.calls).as("d2 has room for 1500 bytes: range 2 (3000) would fill it, range 3 fits")
                    .containsExactly("migrate 3 d2");
        }
    }

    @Test
    void aBackupGoesToTheNodeWithTheFewestBytesThatHasRoomForIt() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 1, 4000, 50_000), node("d2", 0, 0, 12_000),
                    node("d3", 0, 500, 50_000)), List.of(new RangeLoad(1, "[, )", "d1", "serving", true, 400,
                            4000, 0, "")), 0));
            assertThat(actions.fills).as("d2 has room for 2000 bytes only").singleElement().asString()
                    .startsWith("fill 1 d3: ");
        }
    }

    @Test
    void anEmptyNodeWithAFullDiskTakesNoRange() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 2, 200, 50_000), node("d2", 0, 0, 9_000)),
                    List.of(range(1, "d1", 100), range(2, "d1", 100)), 0));
            assertThat(actions.calls).filteredOn(c -> c.startsWith("migrate")).isEmpty();
        }
    }

    @Test
    void aNodeWithTheFewestBytesButLessRoomThanTheBalanceFloorIsPassedOver() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 3, 9000, 50_000), node("d2", 1, 1000, 10_500),
                    node("d3", 1, 2000, 60_000)), List.of(range(1, "d1", 5000), range(2, "d1", 3000),
                            range(3, "d1", 1000), range(4, "d2", 1000), range(5, "d3", 2000)), 0));
            assertThat(actions.calls).as("d2 has 500 bytes of room, below balance.min-bytes (1000): d3 takes range 2")
                    .filteredOn(c -> c.startsWith("migrate")).containsExactly("migrate 2 d3");
        }
    }

    @Test
    void anEmptyNodeWithoutRoomForTheRangeLeavesItToTheNextEmptyNode() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 2, 8000, 50_000), node("d2", 0, 0, 12_000),
                    node("d3", 0, 0, 50_000)), List.of(range(1, "d1", 4000), range(2, "d1", 4000)), 0));
            assertThat(actions.calls).as("d2 has room for 2000 bytes, d3 for 40000").containsExactly("migrate 1 d3");
        }
    }

    @Test
    void aRangeOfUnknownSizeGetsNoBackupOnAFullDisk() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 1, -1, 50_000), node("d2", 0, 0, 5_000)),
                    List.of(new RangeLoad(1, "[, )", "d1", "serving", true, -1, -1, -1, "")), 0));
            assertThat(actions.fills).as("the owner did not answer; d2 is 95 % full").isEmpty();
        }
    }

    @Test
    void aFullDiskIsReportedAndAnUnknownDiskIsNotFull() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 1, 5000, 4_000), node("d2", 1, 5000, 11_000)),
                    List.of(range(1, "d1", 5000), range(2, "d2", 5000)), 0));
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 1, 5000, -1), node("d2", 1, 5000, -1)),
                    List.of(range(1, "d1", 5000), range(2, "d2", 5000)), 0));
            assertThat(actions.calls).as("d1 is 96 % full, d2 89 %; a disk not measured is never full")
                    .containsExactly("alert a full disk: the disk of data node d1 is 96.0 % "
                            + "full (4000 of 100000 bytes free), above balance.max-disk-used-percent 90.0: no range "
                            + "and no backup moves onto it");
        }
        assertThat(RuleConfig.defaults().balanceMaxDiskUsedPercent()).isEqualTo(92.5);
        assertThat(node("d1", 0, 0, -1).hasRoom(0.1)).isTrue();
        assertThat(node("d1", 0, 0, -1).roomBytes(50)).isEqualTo(Long.MAX_VALUE);
    }

    /** d1 holds ranges 1 (5000 bytes) and 2 (2000); d2 and d3 two ranges each; bytes even, so only disks differ. */
    private static ClusterLoad shedding(long d1Free, long d2Free, long d3Free, int migrations) {
        return ClusterLoad.of(List.of(node("d1", 2, 7000, d1Free), node("d2", 2, 7000, d2Free),
                node("d3", 2, 7000, d3Free)), List.of(range(1, "d1", 5000), range(2, "d1", 2000),
                        range(3, "d2", 3500), range(4, "d2", 3500), range(5, "d3", 3500), range(6, "d3", 3500)),
                migrations);
    }

    @Test
    void aDiskFullerThanTheSheddingLimitGivesItsLargestFittingRangeToTheNodeWithTheMostRoom() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(shedding(3_000, 15_000, 20_000, 0));
            assertThat(actions.calls).as("d1 is 97 % full; d3 has room for 10000 bytes, d2 for 5000")
                    .filteredOn(c -> c.startsWith("migrate")).containsExactly("migrate 1 d3");
            actions.calls.clear();
            engine.evaluate(shedding(3_000, 14_000, 12_000, 0));
            assertThat(actions.calls).as("d2 has room for 4000 bytes: range 1 (5000) does not fit, range 2 does")
                    .filteredOn(c -> c.startsWith("migrate")).containsExactly("migrate 2 d2");
        }
    }

    @Test
    void aDiskBetweenTheTwoLimitsOrAClusterWithoutRoomOrAMigrationUnderWayShedsNothing() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(shedding(7_000, 50_000, 50_000, 0)); // 93 %: takes nothing, gives nothing
            engine.evaluate(shedding(3_000, 10_000, 11_000, 0)); // no room for a range of d1 anywhere
            engine.evaluate(shedding(3_000, 50_000, 50_000, 1)); // one move at a time
            engine.evaluate(shedding(-1, 50_000, 50_000, 0)); // a disk not measured is never shed
            assertThat(actions.calls).filteredOn(c -> c.startsWith("migrate")).isEmpty();
        }
    }

    @Test
    void aFullerNodeWithNothingToGiveDoesNotStopTheNextFromShedding() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            // d1 is 99 % full of what it does not own (backup copies); d2 97 %; d3 has room
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 0, 0, 1_000), node("d2", 2, 7000, 3_000),
                    node("d3", 2, 7000, 50_000)), List.of(range(1, "d2", 5000), range(2, "d2", 2000),
                            range(3, "d3", 3500), range(4, "d3", 3500)), 0));
            assertThat(actions.calls).filteredOn(c -> c.startsWith("migrate")).containsExactly("migrate 1 d3");
        }
    }

    @Test
    void aNodeWhoseDiskIsNotMeasuredTakesNoShedRange() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(shedding(3_000, -1, 90_000, 0));
            assertThat(actions.calls).as("d2's disk is unknown (an older build): d3, measured, takes it")
                    .filteredOn(c -> c.startsWith("migrate")).containsExactly("migrate 1 d3");
        }
    }

    /**
     * d1 is 97 % full of the backups it keeps (ranges 1 of 5000 bytes and 2 of 2000, owned by d2) and owns nothing:
     * the largest backup goes to the node with the most room that is not its owner; with no room for it, the next.
     */
    @Test
    void aFullDiskGivesItsLargestBackupToTheNodeWithTheMostRoomOtherThanItsOwner() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions)) {
            engine.evaluate(backups(3_000, 90_000, 20_000, 50_000, 0));
            assertThat(actions.fills).as("d2 owns range 1: d4, with more room than d3, takes its backup").hasSize(1);
            assertThat(actions.fills.get(0)).startsWith("move backup 1 d1 d4: move a backup off a full disk: the disk "
                    + "of d1 is 97.0 % full, above balance.shed-disk-used-percent 95.0; its backup of range 1 [r1) "
                    + "(500 streams, 5000 bytes, owned by d2) moves to d4");
            actions.fills.clear();
            engine.evaluate(backups(3_000, 90_000, 12_000, 14_000, 0));
            assertThat(actions.fills).as("room for 2000 and 4000 bytes: range 1 (5000) fits nowhere, range 2 does")
                    .singleElement().asString().startsWith("move backup 2 d1 d4: ");
            actions.fills.clear();
            engine.evaluate(backups(7_000, 90_000, 50_000, 50_000, 0));
            engine.evaluate(backups(3_000, 90_000, 50_000, 50_000, 1));
            assertThat(actions.fills).as("93 % full: under the shedding limit; a migration under way: wait")
                    .isEmpty();
        }
    }

    /** d1 (free bytes given) backs up ranges 1 and 2 of d2; d3 and d4 own one range each and back up none. */
    private static ClusterLoad backups(long d1Free, long d2Free, long d3Free, long d4Free, int migrations) {
        return ClusterLoad.of(List.of(node("d1", 0, 0, d1Free), node("d2", 2, 7000, d2Free),
                node("d3", 1, 3500, d3Free), node("d4", 1, 3500, d4Free)), List.of(
                        new RangeLoad(1, "[r1)", "d2", "serving", true, 500, 5000, 0, "d1"),
                        new RangeLoad(2, "[r2)", "d2", "serving", true, 200, 2000, 0, "d1"),
                        new RangeLoad(3, "[r3)", "d3", "serving", true, 350, 3500, 0, "d4"),
                        new RangeLoad(4, "[r4)", "d4", "serving", true, 350, 3500, 0, "d3")), migrations);
    }

    private static RuleEngine engine(RecordingActions actions) throws Exception {
        RuleConfig config = new RuleConfig(1, List.of(), List.of(), 100, 500, 2.0, 10.0, 1000, 64_000, 1.25, 1000, 90,
                95);
        return RuleEngine.create(List.of(RuleSource.classpath("balance.drl")), config, actions);
    }

    private static NodeLoad node(String id, int ranges, long bytes, long free) {
        return new NodeLoad(id, "up", ranges, bytes / 10, bytes, 0, free, free < 0 ? -1 : DISK);
    }

    private static RangeLoad range(int id, String owner, long bytes) {
        return new RangeLoad(id, "[r" + id + ")", owner, "serving", true, bytes / 10, bytes);
    }
}
