package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.autodisk.cli.ClusterSizeOptions;
import org.autodisk.core.cluster.RulesReload;
import org.autodisk.rules.RuleSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench rules}: insert throughput of one local cluster under three rule sets - a minimal one
 * (one rule deciding every request), the shipped rules, and the shipped rules plus the double-log and
 * write-protect examples - switched by cluster-wide reloads between measurements, rounds interleaved, so the
 * ratios come from one run on the same processes.
 */
@Command(name = "rules", footer = "  autodisk bench rules", defaultValueProvider = BenchOptions.PortDefault.class,
        description = "Insert throughput with the shipped rules versus a minimal rule set "
        + "(ratios measured in one run, rules switched by reload).")
final class RulesBench implements Callable<Integer> {

    static final String MINIMAL = """
            package org.autodisk.rules;
            global org.autodisk.rules.Verdict verdict;
            global org.autodisk.rules.RuleConfig config;
            rule "route"
            when
                $r : RequestEvent( )
            then
                if ($r.ownerIsLocal()) { verdict.handleLocally(config.logMultiplicity()); } else { verdict.forward(); }
            end
            """;

    @Option(names = "--rounds", defaultValue = "3", description = "Measurements per rule set, interleaved.")
    int rounds;

    @Option(names = "--count", defaultValue = "150000", description = "Measured inserts per measurement.")
    int count;

    @Option(names = "--warmup", defaultValue = "150000", description = "Unmeasured inserts before the first round.")
    int warmup;

    @Option(names = "--in-flight", defaultValue = "64", description = "Concurrent inserts.")
    int inFlight;

    @Mixin
    BenchOptions.Port port;

    @Mixin
    BenchOptions.ValueSize value;

    @Mixin
    ClusterSizeOptions size;


    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("autodisk-bench-rules");
        Path rules = Files.createDirectories(dir.resolve("rules"));
        write(rules, "minimal");
        String yaml = "rules.shipped: false\nrules.dir: " + rules + "\nrules.double-log-prefixes: []\n"
                + "rules.write-protected-prefixes: [\"ro/\"]\n";
        BenchCluster.Spec spec = new BenchCluster.Spec("rules", size.dataNodes(), size.logNodes(),
                size.multiplicity(), "rocksdb");
        System.out.println("starting " + size.dataNodes() + " data nodes and " + size.logNodes() + " log nodes on "
                + "127.0.0.1:" + port.basePort + " ...");
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        BenchNodes nodes = BenchNodes.localProcesses(dir.resolve("cluster"), port.basePort, false);
        try (BenchCluster c = BenchCluster.start(nodes, spec, "rules", yaml, 0)) {
            byte[] value = new byte[this.value.valueBytes];
            Tracker t = new Tracker(InsertExperiments.Progress.NONE, 1);
            System.out.println("warming up: " + warmup + " inserts, " + inFlight + " in flight ...");
            InsertLoad.inFlight(c, c::keyAnyRange, value, warmup, inFlight, t);
            for (int round = 1; round <= rounds; round++) {
                for (String set : List.of("minimal", "shipped", "shipped+examples")) {
                    switchTo(c, rules, set);
                    InsertLoad.Run run = InsertLoad.inFlight(c, c::keyAnyRange, value, count, inFlight, t);
                    double rate = run.n() / (run.nanos() / 1e9);
                    rates.computeIfAbsent(set, s -> new ArrayList<>()).add(rate);
                    System.out.printf("round %d, %-16s %,.0f inserts/s (%d errors)%n", round, set, rate, run.errors());
                }
            }
        }
        print(rates);
        return 0;
    }

    private static void switchTo(BenchCluster c, Path rules, String set) throws IOException {
        write(rules, set);
        RulesReload reload = c.client.reloadRules();
        if (!reload.installed()) {
            throw new IllegalStateException("reload to the " + set + " rules failed: " + reload.nodes());
        }
    }

    private static void write(Path rules, String set) throws IOException {
        try (Stream<Path> old = Files.list(rules)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
        List<RuleSource> sources = new ArrayList<>();
        if (set.equals("minimal")) {
            sources.add(new RuleSource("minimal.drl", "minimal", MINIMAL));
        } else {
            sources.addAll(RuleSource.shipped());
        }
        if (set.equals("shipped+examples")) {
            sources.add(RuleSource.classpath("examples/double-log.drl"));
            sources.add(RuleSource.classpath("examples/write-protect.drl"));
        }
        for (RuleSource s : sources) {
            Files.writeString(rules.resolve(s.name()), s.drl());
        }
    }

    private static void print(Map<String, List<Double>> rates) {
        double minimal = median(rates.get("minimal"));
        System.out.println();
        System.out.println("| rule set | inserts/s per round | median | ratio to minimal |");
        System.out.println("|---|---|---|---|");
        rates.forEach((set, list) -> System.out.printf("| %s | %s | %,.0f | %.3f |%n", set,
                list.stream().map(r -> String.format("%,.0f", r)).toList(), median(list), median(list) / minimal));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
