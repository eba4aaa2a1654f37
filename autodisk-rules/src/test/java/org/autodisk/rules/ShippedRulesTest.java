package org.autodisk.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ShippedRulesTest {

    private static final RuleConfig CONFIG = new RuleConfig(1, List.of("log2/"), List.of("ro/"), 100, 500, 2.0,
            10.0);

    private static RuleEngine engine(RecordingActions actions, String... files) throws Exception {
        List<RuleSource> sources = Arrays.stream(files).map(RuleSource::classpath).toList();
        return RuleEngine.create(sources, CONFIG, actions);
    }

    @Test
    void routingForwardsWhatAnotherNodeOwnsAndHandlesItsOwnWithOneLog() throws Exception {
        try (RuleEngine engine = engine(new RecordingActions(), "routing.drl")) {
            assertThat(engine.decide(new InsertRequested("r1", "kiwi", 10, false, 1, 0)))
                    .isEqualTo(Decision.FORWARD);
            assertThat(engine.decide(new InsertRequested("r2", "apple", 10, true, 0, 0)))
                    .isEqualTo(Decision.handleLocally(1));
            assertThat(engine.decide(new SearchRequested("r3", "kiwi", false, 1, 0))).isEqualTo(Decision.FORWARD);
            assertThat(engine.decide(new DeleteRequested("r4", "apple", true, 0, 1)))
                    .isEqualTo(Decision.handleLocally(1));
            assertThat(engine.decide(new TraverseRequested("r5", "a", "z", true, 0, 0)))
                    .isEqualTo(Decision.handleLocally(1));
            Evaluation evaluation = engine.evaluate(new TraverseRequested("r6", "p", "", false, 2, 0));
            assertThat(evaluation.decision()).isEqualTo(Decision.FORWARD);
            assertThat(evaluation.firedRules()).isEqualTo(1);
            assertThat(evaluation.isFailure()).isFalse();
        }
    }

    @Test
    void catchUpStartsBeyondTheThreshold() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions, "catch-up.drl")) {
            engine.evaluate(new BacklogReport("s1", "d2", 100, 0));
            engine.evaluate(new BacklogReport("s2", "d3", 101, 0));
            assertThat(actions.calls).containsExactly("catchUp s2");
        }
    }

    @Test
    void catchUpStartsWhenIdleWithAnyBacklog() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions, "catch-up.drl")) {
            engine.evaluate(new BacklogReport("s1", "d2", 5, 499));
            engine.evaluate(new BacklogReport("s2", "d3", 0, 10_000));
            engine.evaluate(new BacklogReport("s3", "d1", 1, 500));
            assertThat(actions.calls).containsExactly("catchUp s3");
        }
    }

    @Test
    void routingGivesWritesTheClusterLogMultiplicity() throws Exception {
        RuleConfig two = new RuleConfig(2, List.of(), List.of(), 100, 500, 2.0, 10.0);
        try (RuleEngine engine = RuleEngine.create(List.of(RuleSource.classpath("routing.drl")), two,
                NodeActions.NONE)) {
            assertThat(engine.decide(new InsertRequested("r1", "apple", 10, true, 0, 0)))
                    .isEqualTo(Decision.handleLocally(2));
        }
    }

    @Test
    void loadSkewRaisesAnAlertForTheHotNode() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions, "load.drl")) {
            engine.evaluate(new LoadReport("d1", 100, 3, 0));
            engine.evaluate(new LoadReport("d2", 110, 3, 0));
            assertThat(actions.calls).isEmpty();
            engine.evaluate(new LoadReport("d3", 900, 3, 40));
            assertThat(actions.calls).singleElement().asString()
                    .startsWith("alert load skew: node d3 serves 900 req/s");
            actions.calls.clear();
            engine.evaluate(new LoadReport("d3", 120, 3, 0));
            assertThat(actions.calls).isEmpty();
        }
    }

    @Test
    void aRangeSplitsBeyondEitherThreshold() throws Exception {
        RecordingActions actions = new RecordingActions();
        RuleConfig small = new RuleConfig(1, List.of(), List.of(), 100, 500, 2.0, 10.0, 1000, 64_000, 1.25, 1000, 90,
                95);
        try (RuleEngine engine = RuleEngine.create(List.of(RuleSource.classpath("split.drl")), small, actions)) {
            engine.evaluate(new RangeStats(1, "[, h)", 1000, 64_000, 1));
            engine.evaluate(new RangeStats(2, "[h, p)", 1001, 10, 1));
            engine.evaluate(new RangeStats(3, "[p, )", 10, 64_001, 1));
            assertThat(actions.calls).containsExactly("split 2", "split 3");
        }
        assertThat(RuleConfig.defaults().splitKeys()).isEqualTo(1_000_000);
        assertThat(RuleConfig.defaults().splitBytes()).isEqualTo(256L << 20);
    }

    @Test
    void theNodeWithTheMostBytesGivesItsLargestRangeThatFitsToTheNodeWithTheFewest() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = balanceEngine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 3, 9000), node("d2", 1, 1000), node("d3", 1, 2000)),
                    List.of(range(1, "d1", 5000), range(2, "d1", 3000), range(3, "d1", 1000), range(4, "d2", 1000),
                            range(5, "d3", 2000)), 0));
            assertThat(actions.calls).as("4000 fits into (9000 - 1000) / 2; 5000 does not").containsExactly(
                    "migrate 2 d2");
            assertThat(actions.reasons.get(0)).startsWith("balance stored bytes: d1 holds 9000 bytes");
        }
    }

    @Test
    void balancedNodesRangesTooLargeAndMigrationsUnderWayMoveNothing() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = balanceEngine(actions)) {
            List<RangeLoad> ranges = List.of(range(1, "d1", 3000), range(2, "d1", 3000), range(3, "d2", 2500));
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 2, 6000), node("d2", 1, 2500)), ranges, 1));
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 2, 3400), node("d2", 1, 2500)), List.of(
                    range(1, "d1", 1700), range(2, "d1", 1700), range(3, "d2", 2500)), 0));
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 2, 6000), node("d2", 1, 2500)), ranges, 0));
            assertThat(actions.calls).as("under way; within 1000 bytes; 3000 > (6000 - 2500) / 2").isEmpty();
        }
    }

    @Test
    void anEmptyUpNodeTakesTheLargestRangeThatKeepsTheOrder() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = balanceEngine(actions)) {
            List<RangeLoad> ranges = List.of(range(1, "d1", 10), range(2, "d1", 20), range(3, "d1", 5),
                    range(4, "d2", 10));
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 3, 35), node("d2", 1, 10),
                    new NodeLoad("d3", "joining", 0, 0, 0, 0)), ranges, 0));
            assertThat(actions.calls).as("d3 is not up yet").isEmpty();
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 3, 35), node("d2", 1, 10), node("d3", 0, 0)),
                    ranges, 0));
            assertThat(actions.calls).as("20 * 2 > 35: the largest that keeps d1 ahead is 10").containsExactly(
                    "migrate 1 d3");
        }
    }

    @Test
    void anEmptyNodeWhenNoNodeHoldsTwoRangesGetsTheUpperHalfOfTheLargestNodesRange() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = balanceEngine(actions)) {
            List<RangeLoad> ranges = List.of(range(1, "d1", 30), range(2, "d2", 50), range(3, "d3", 40));
            List<NodeLoad> nodes = List.of(node("d1", 1, 30), node("d2", 1, 50), node("d3", 1, 40));
            List<NodeLoad> joining = new java.util.ArrayList<>(nodes);
            joining.add(new NodeLoad("d4", "joining", 0, 0, 0, 0));
            engine.evaluate(ClusterLoad.of(joining, ranges, 0));
            assertThat(actions.calls).as("d4 is not up yet").isEmpty();
            List<NodeLoad> up = new java.util.ArrayList<>(nodes);
            up.add(node("d4", 0, 0));
            engine.evaluate(ClusterLoad.of(up, List.of(range(1, "d1", 30), new RangeLoad(2, "[r2)", "d2", "serving",
                    true, 1, 50), range(3, "d3", 40)), 0));
            assertThat(actions.calls).as("d2's one stream cannot be halved, and d3 does not hold the most").isEmpty();
            engine.evaluate(ClusterLoad.of(up, ranges, 1));
            assertThat(actions.calls).as("a migration is under way").isEmpty();
            engine.evaluate(ClusterLoad.of(up, ranges, 0));
            assertThat(actions.calls).containsExactly("migrate upper half 2 d4");
            assertThat(actions.reasons.get(0)).startsWith("split for an empty data node: d4 holds no range and no "
                    + "node holds two; d2 holds the most bytes (50)");
        }
    }

    @Test
    void theNodeServingTheMostRequestsGivesTheRangeThatFitsHalfTheDifferenceToTheNodeServingTheFewest()
            throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = balanceEngine(actions)) {
            // bytes are even: only the request rates differ; d1 serves 900 of 1,200 requests/s (average 400)
            List<NodeLoad> nodes = List.of(busy("d1", 3, 900), busy("d2", 1, 200), busy("d3", 1, 100));
            List<RangeLoad> ranges = List.of(hot(1, "d1", 600), hot(2, "d1", 250), hot(3, "d1", 50),
                    hot(4, "d2", 200), hot(5, "d3", 100));
            engine.evaluate(ClusterLoad.of(nodes, ranges, 0));
            assertThat(actions.calls).as("600 * 2 > 900 - 100; 250 fits").containsExactly("migrate 2 d3");
            assertThat(actions.reasons.get(0)).startsWith("balance request load: d1 serves 900 requests/s, 2.25 "
                    + "times the average 400; d3 serves 100; range 2 [r2) (250 requests/s) moves");
            actions.calls.clear();
            engine.evaluate(ClusterLoad.of(List.of(busy("d1", 3, 700), busy("d2", 1, 300), busy("d3", 1, 200)),
                    ranges, 0));
            engine.evaluate(ClusterLoad.of(List.of(busy("d1", 3, 9), busy("d2", 1, 1), busy("d3", 1, 1)), List.of(
                    hot(1, "d1", 6), hot(2, "d1", 2), hot(3, "d1", 1), hot(4, "d2", 1), hot(5, "d3", 1)), 0));
            engine.evaluate(ClusterLoad.of(List.of(busy("d1", 1, 900), busy("d2", 1, 200), busy("d3", 1, 100)),
                    List.of(hot(1, "d1", 900), hot(4, "d2", 200), hot(5, "d3", 100)), 0));
            engine.evaluate(ClusterLoad.of(nodes, ranges, 1));
            assertThat(actions.calls).as("within 2x the average; below the 10 requests/s of this test's "
                    + "rules.skew-min-requests-per-second; one hot range; a migration under way").isEmpty();
        }
    }

    private static NodeLoad busy(String id, int ranges, double rate) {
        return new NodeLoad(id, "up", ranges, 100, 1000, rate);
    }

    private static RangeLoad hot(int id, String owner, double rate) {
        return new RangeLoad(id, "[r" + id + ")", owner, "serving", true, 10, 100, rate);
    }

    @Test
    void aRangeWithoutABackupGetsOneOnTheOtherDataNodeWithTheFewestBytes() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = balanceEngine(actions)) {
            List<NodeLoad> nodes = List.of(node("d1", 2, 9000), node("d2", 1, 3000), node("d3", 1, 5000),
                    new NodeLoad("d4", "joining", 0, 0, 0, 0));
            engine.evaluate(ClusterLoad.of(nodes, List.of(backedUp(1, "d1", "d2"), backedUp(2, "d1", ""),
                    backedUp(3, "d2", ""), backedUp(4, "d3", "d1")), 1));
            assertThat(actions.fills).containsExactlyInAnyOrder(
                    "fill 2 d2: fill a missing backup: range 2 [r2) on d1 has no backup; d2 (3000 bytes, the fewest of "
                            + "the other data nodes) takes a copy",
                    "fill 3 d3: fill a missing backup: range 3 [r3) on d2 has no backup; d3 (5000 bytes, the fewest of "
                            + "the other data nodes) takes a copy");
            assertThat(actions.calls).as("a migration is under way: no move").isEmpty();
            actions.fills.clear();
            engine.evaluate(ClusterLoad.of(nodes, List.of(backedUp(1, "d1", "d2"), new RangeLoad(2, "[r2)", "d1",
                    "migrating", false, 10, 100, 0, "")), 1));
            assertThat(actions.fills).as("every range has a backup or is moving").isEmpty();
        }
    }

    private static RangeLoad backedUp(int id, String owner, String backup) {
        return new RangeLoad(id, "[r" + id + ")", owner, "serving", true, 10, 100, 0, backup);
    }

    @Test
    void aRangeThatCannotMoveStaysWhereItIs() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = balanceEngine(actions)) {
            engine.evaluate(ClusterLoad.of(List.of(node("d1", 2, 9000), node("d2", 0, 0)), List.of(
                    new RangeLoad(1, "[, m)", "d1", "serving", false, 1, 4000),
                    new RangeLoad(2, "[m, )", "d1", "splitting", false, 1, 4000)), 0));
            assertThat(actions.calls).isEmpty();
        }
        assertThat(RuleConfig.defaults().balanceRatio()).isEqualTo(1.25);
        assertThat(RuleConfig.defaults().balanceMinBytes()).isEqualTo(64L << 20);
    }

    private static RuleEngine balanceEngine(RecordingActions actions) throws Exception {
        RuleConfig config = new RuleConfig(1, List.of(), List.of(), 100, 500, 2.0, 10.0, 1000, 64_000, 1.25, 1000, 90,
                95);
        return RuleEngine.create(List.of(RuleSource.classpath("balance.drl")), config, actions);
    }

    private static NodeLoad node(String id, int ranges, long bytes) {
        return new NodeLoad(id, "up", ranges, bytes / 10, bytes, 0);
    }

    private static RangeLoad range(int id, String owner, long bytes) {
        return new RangeLoad(id, "[r" + id + ")", owner, "serving", true, bytes / 10, bytes);
    }

    @Test
    void suspectedNodeRaisesAnAlert() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions, "suspect.drl")) {
            Evaluation evaluation = engine.evaluate(new NodeSuspected("d4", "3 missed heartbeats"));
            assertThat(evaluation.firedRules()).isEqualTo(1);
            assertThat(actions.calls)
                    .containsExactly("alert node suspected: node d4 is suspected: 3 missed heartbeats");
        }
    }

    @Test
    void doubleLogPrefixGetsMultiplicityTwoAtTheOwner() throws Exception {
        try (RuleEngine engine = engine(new RecordingActions(), "routing.drl", "examples/double-log.drl")) {
            assertThat(engine.decide(new InsertRequested("r1", "log2/a", 10, true, 0, 0)))
                    .isEqualTo(Decision.handleLocally(2));
            assertThat(engine.decide(new InsertRequested("r2", "other", 10, true, 0, 0)))
                    .isEqualTo(Decision.handleLocally(1));
            assertThat(engine.decide(new InsertRequested("r3", "log2/a", 10, false, 0, 0)))
                    .isEqualTo(Decision.FORWARD);
        }
    }

    @Test
    void writeProtectRefusesDeleteAndReplaceWithAReason() throws Exception {
        try (RuleEngine engine = engine(new RecordingActions(), "routing.drl", "examples/write-protect.drl")) {
            assertThat(engine.decide(new DeleteRequested("r1", "ro/x", true, 0, 0)))
                    .isEqualTo(Decision.refuse("key 'ro/x' is write-protected (prefix 'ro/'): delete refused"));
            assertThat(engine.decide(new InsertRequested("r2", "ro/x", 5, false, 0, 0, true)).reason())
                    .isEqualTo("key 'ro/x' is write-protected (prefix 'ro/'): replace refused");
            assertThat(engine.decide(new InsertRequested("r3", "ro/x", 5, true, 0, 0, false)))
                    .isEqualTo(Decision.handleLocally(1));
            assertThat(engine.decide(new DeleteRequested("r4", "rw/x", true, 0, 0)))
                    .isEqualTo(Decision.handleLocally(1));
        }
    }

    @Test
    void theStoreIsAskedWhetherAKeyExistsOnlyWhenARuleReadsReplaceOnceAndNeverAfterTheSeal() throws Exception {
        AtomicInteger lookups = new AtomicInteger();
        InsertRequested.Existing existing = new InsertRequested.Existing(() -> lookups.incrementAndGet() > 0);
        InsertRequested insert = new InsertRequested("r1", "ro/x", 5, true, 0, 0, existing);
        try (RuleEngine engine = engine(new RecordingActions(), "routing.drl")) {
            assertThat(engine.decide(insert)).isEqualTo(Decision.handleLocally(1));
            assertThat(lookups).hasValue(0);
        }
        try (RuleEngine engine = engine(new RecordingActions(), "routing.drl", "examples/write-protect.drl")) {
            for (int i = 0; i < 2; i++) {
                assertThat(engine.decide(insert).reason())
                        .isEqualTo("key 'ro/x' is write-protected (prefix 'ro/'): replace refused");
            }
            assertThat(lookups).as("looked up once for the request").hasValue(1);
            InsertRequested.Existing sealed = new InsertRequested.Existing(() -> lookups.incrementAndGet() > 0);
            sealed.seal();
            assertThat(engine.decide(new InsertRequested("r2", "ro/y", 5, true, 0, 0, sealed)))
                    .isEqualTo(Decision.handleLocally(1));
            assertThat(lookups).as("a sealed lookup never reads the store").hasValue(1);
        }
    }

    private static NodeFailed failed(String node, long forMs, List<FailedRange> owned, List<FailedRange> backedUp) {
        return new NodeFailed(node, "data", forMs, owned, backedUp);
    }

    @Test
    void failoverPromotesEveryRangeWithALiveBackupDropsTheFailedBackupAndAlertsForTheRest() throws Exception {
        RecordingActions actions = new RecordingActions();
        try (RuleEngine engine = engine(actions, "failover.drl")) {
            engine.evaluate(failed("d2", 1500, List.of(new FailedRange(1, "[a, b)", "d2", "d3", true, 4),
                    new FailedRange(2, "[b, c)", "d2", "d1", false, 1), new FailedRange(3, "[c, d)", "d2", "", false,
                    1)), List.of(new FailedRange(7, "[x, y)", "d1", "d2", false, 2))));
            assertThat(actions.calls).contains("promote 1", "dropBackup 7 d2")
                    .doesNotContain("promote 2", "promote 3")
                    .anyMatch(c -> c.startsWith("alert a failed owner's range without a live backup: range 2 [b, c) "
                            + "of failed data node d2 has its backup d1 down"))
                    .anyMatch(c -> c.contains("range 3 [c, d) of failed data node d2 has no backup"));
            actions.calls.clear();
            engine.evaluate(new NodeFailed("l1", "log", 1500, List.of(), List.of()));
            assertThat(actions.calls).as("a log node owns nothing to fail over").isEmpty();
        }
    }

    @Test
    void theHoldExampleHoldsAFailoverForTenSecondsAndANodeUnderMaintenanceForEver() throws Exception {
        RecordingActions actions = new RecordingActions();
        List<FailedRange> owned = List.of(new FailedRange(1, "[a, b)", "d2", "d3", true, 4));
        try (RuleEngine engine = engine(actions, "failover.drl", "examples/failover-hold.drl")) {
            engine.evaluate(failed("d2", 9_000, owned, List.of()));
            assertThat(actions.calls).contains("promote 1").anyMatch(c -> c.startsWith("hold d2: hold a failover "
                    + "for 10 s"));
            actions.calls.clear();
            engine.evaluate(failed("d2", 10_000, owned, List.of()));
            assertThat(actions.calls).containsExactly("promote 1");
            actions.calls.clear();
            engine.evaluate(failed("maint-1", 60_000, owned, List.of()));
            assertThat(actions.calls).contains("promote 1", "hold maint-1: hold the failover of a node under "
                    + "maintenance: planned maintenance");
        }
    }
}
