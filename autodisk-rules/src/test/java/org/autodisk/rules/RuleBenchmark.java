package org.autodisk.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/** Cost of deciding one InsertRequested through the shipped rules (sample mode: p50 in the output). */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RuleBenchmark {

    private RuleEngine engine;
    private RuleEngine withExamples;
    private InsertRequested owned;
    private InsertRequested foreign;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        engine = RuleEngine.create(RuleSource.shipped(), RuleConfig.defaults(), NodeActions.NONE);
        owned = new InsertRequested("r1", "apple", 1024, true, 0, 0);
        foreign = new InsertRequested("r2", "kiwi", 1024, false, 1, 0);
        List<RuleSource> sources = new ArrayList<>(RuleSource.shipped());
        sources.add(RuleSource.classpath("examples/double-log.drl"));
        sources.add(RuleSource.classpath("examples/write-protect.drl"));
        withExamples = RuleEngine.create(sources, RuleConfig.defaults().withPrefixes(List.of("ledger/"),
                List.of("contracts/")), NodeActions.NONE);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        engine.close();
        withExamples.close();
    }

    @Benchmark
    public Decision insertAtOwner() {
        return engine.decide(owned);
    }

    @Benchmark
    public Decision insertAtOwnerWithExamples() {
        return withExamples.decide(owned);
    }

    @Benchmark
    public Decision insertForwarded() {
        return engine.decide(foreign);
    }
}
