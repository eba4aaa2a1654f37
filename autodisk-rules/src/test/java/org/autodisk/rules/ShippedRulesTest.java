package org.autodisk.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
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
        RuleConfig small = new RuleConfig(1, List.of(), List.of(), 100, 500, 2.0, 10.0, 1000, 64_000);
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
}
