package org.autodisk.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuleEngineTest {

    private static final String HEADER = """
            package org.autodisk.rules;
            global org.autodisk.rules.Verdict verdict;
            """;

    private static final String REFUSE_ALL = HEADER + """
            rule "refuse all"
            when
                RequestEvent()
            then
                verdict.refuse("closed");
            end
            """;

    private static final String THROWING = HEADER + """
            rule "explode on boom"
            when
                InsertRequested( key == "boom" )
            then
                throw new IllegalStateException("kaboom");
            end
            """;

    private static final String THROWING_CONDITION = HEADER + """
            rule "bad condition"
            when
                SearchRequested( key.substring(100) == "x" )
            then
                verdict.forward();
            end
            """;

    private static final String BROKEN = HEADER + """
            rule "broken"
            when
                InsertRequested( nosuchfield == 1 )
            then
                verdict.forward();
            end
            """;

    @TempDir
    Path dir;

    private static RuleSource source(String name, String drl) {
        return new RuleSource(name, "mem:" + name, drl);
    }

    @Test
    void aParseErrorIsReportedOnceWithoutDroolsEchoAtLineZero() throws Exception {
        Files.writeString(dir.resolve("half.drl"), HEADER + "rule \"half\"\nwhen\n    InsertRequested( key == )\nthen\n"
                + "end\n");
        List<RuleError> errors = RuleEngine.validate(dir);
        assertThat(errors).isNotEmpty().allSatisfy(e -> assertThat(e.line()).isPositive())
                .noneSatisfy(e -> assertThat(e.message()).contains("null Package"));
    }

    @Test
    void invalidRulesInTheUserDirectoryAreReportedWithFileAndLine() throws Exception {
        Path file = dir.resolve("bad.drl");
        Files.writeString(file, BROKEN);
        List<RuleError> errors = RuleEngine.validate(dir);
        assertThat(errors).isNotEmpty();
        assertThat(errors).allSatisfy(e -> assertThat(e.file()).isEqualTo(file.toString()));
        assertThat(errors).anySatisfy(e -> assertThat(e.line()).isBetween(3, 6));
        assertThat(errors.get(0).toString()).startsWith(file + ":");
        Files.writeString(dir.resolve("bad.drl"), HEADER + "rule \"syntax\" when then end end\n");
        assertThat(RuleEngine.validate(dir)).isNotEmpty().allSatisfy(e -> assertThat(e.line()).isPositive());
        assertThatThrownBy(() -> RuleEngine.create(dir, RuleConfig.defaults(), NodeActions.NONE))
                .isInstanceOf(RuleCompilationException.class);
    }

    @Test
    void shippedRulesAndAUserDirectoryCompileAndAUserFileReplacesAShippedOne() throws Exception {
        assertThat(RuleEngine.validate(dir)).isEmpty();
        Files.writeString(dir.resolve("routing.drl"), REFUSE_ALL);
        try (RuleEngine engine = RuleEngine.create(dir, RuleConfig.defaults(), NodeActions.NONE)) {
            assertThat(engine.decide(new SearchRequested("r", "k", true, 0, 0))).isEqualTo(Decision.refuse("closed"));
        }
    }

    @Test
    void reloadSwapsTheRulesAndAFailedReloadKeepsTheOldOnes() throws Exception {
        RuleSource routing = RuleSource.classpath("routing.drl");
        InsertRequested insert = new InsertRequested("r", "k", 1, true, 0, 0);
        try (RuleEngine engine = RuleEngine.create(List.of(routing), RuleConfig.defaults(), NodeActions.NONE)) {
            assertThat(engine.decide(insert)).isEqualTo(Decision.handleLocally(1));
            assertThat(engine.reload(List.of(source("routing.drl", REFUSE_ALL)))).isEmpty();
            assertThat(engine.decide(insert)).isEqualTo(Decision.refuse("closed"));
            List<RuleError> errors = engine.reload(List.of(routing, source("bad.drl", BROKEN)));
            assertThat(errors).isNotEmpty().allSatisfy(e -> assertThat(e.file()).isEqualTo("mem:bad.drl"));
            assertThat(engine.decide(insert)).isEqualTo(Decision.refuse("closed"));
        }
    }

    @Test
    void aThrowingRuleYieldsAFailureNamingItAndTheEngineStaysUsable() throws Exception {
        List<RuleSource> sources = List.of(RuleSource.classpath("routing.drl"), source("throw.drl", THROWING),
                source("cond.drl", THROWING_CONDITION));
        try (RuleEngine engine = RuleEngine.create(sources, RuleConfig.defaults(), NodeActions.NONE)) {
            Evaluation failed = engine.evaluate(new InsertRequested("r1", "boom", 1, true, 0, 0));
            assertThat(failed.isFailure()).isTrue();
            assertThat(failed.failedRule()).isEqualTo("explode on boom");
            assertThat(failed.failure()).contains("kaboom");
            assertThat(failed.decision()).isEqualTo(Decision.NONE);
            engine.evaluate(new InsertRequested("r2", "boom", 1, true, 0, 0));
            assertThat(engine.failureCounts()).containsEntry("explode on boom", 2L);
            Evaluation badCondition = engine.evaluate(new SearchRequested("r4", "k", true, 0, 0));
            assertThat(badCondition.failedRule()).isEqualTo("bad condition");
            assertThat(engine.failureCounts()).containsEntry("bad condition", 1L);
            assertThat(engine.decide(new InsertRequested("r3", "fine", 1, true, 0, 0)))
                    .isEqualTo(Decision.handleLocally(1));
        }
    }

    @Test
    void aThrowingActionInAControlRuleIsContainedToo() throws Exception {
        NodeActions failing = new NodeActions() {
            @Override
            public void alert(String rule, String message) {
                throw new IllegalArgumentException("alert sink down");
            }
        };
        try (RuleEngine engine = RuleEngine.create(List.of(RuleSource.classpath("suspect.drl")),
                RuleConfig.defaults(), failing)) {
            Evaluation evaluation = engine.evaluate(new NodeSuspected("d2", "timeout"));
            assertThat(evaluation.failedRule()).isEqualTo("node suspected");
            assertThat(evaluation.failure()).contains("alert sink down");
            assertThat(engine.evaluate(new Idle("d2", 10, 5)).isFailure()).isFalse();
        }
    }

    @Test
    void severalThreadsEvaluateConcurrently() throws Exception {
        List<RuleSource> sources = List.of(RuleSource.classpath("routing.drl"),
                RuleSource.classpath("examples/double-log.drl"), RuleSource.classpath("suspect.drl"));
        RuleConfig config = new RuleConfig(1, List.of("d/"), List.of(), 10, 200, 2.0, 1.0);
        RecordingActions actions = new RecordingActions();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (RuleEngine engine = RuleEngine.create(sources, config, actions)) {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                results.add(pool.submit(() -> evaluateMany(engine, thread)));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get()).isEqualTo(2000);
            }
            assertThat(actions.calls).hasSize(4 * 20);
        } finally {
            pool.shutdownNow();
        }
    }

    private static int evaluateMany(RuleEngine engine, int thread) {
        int right = 0;
        for (int i = 0; i < 2000; i++) {
            boolean local = i % 3 != 0;
            String key = (i % 2 == 0 ? "d/" : "x/") + thread + "-" + i;
            Decision expected = !local ? Decision.FORWARD : Decision.handleLocally(i % 2 == 0 ? 2 : 1);
            if (engine.decide(new InsertRequested(thread + "-" + i, key, 8, local, 0, 0)).equals(expected)) {
                right++;
            }
            if (i % 100 == 0) {
                engine.evaluate(new NodeSuspected("n" + thread, "test"));
            }
        }
        return right;
    }
}
