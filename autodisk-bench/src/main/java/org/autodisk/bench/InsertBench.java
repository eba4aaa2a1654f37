package org.autodisk.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.autodisk.cli.SettingsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code autodisk bench insert}: the seed paper's insert-cost experiments (§3.3-3.6, Tables 3-9) on local
 * clusters it starts itself; writes CSV files, a Markdown report with the paper's figures beside ours, and PNG
 * charts.
 */
@Command(name = "insert", footer = "  autodisk bench insert --quick",
        mixinStandardHelpOptions = true, defaultValueProvider = BenchOptions.PortDefault.class,
        description = "Seed 004's insert-cost experiments: "
        + "(a) response time of one insert, (b) time per insert for N streams, (c) throughput by stream size, "
        + "(d) multiplicity 1 vs 2, (e) the components of one insert (Table 5). Starts its own clusters (separate "
        + "processes on 127.0.0.1) one after another; wal.multiplicity and store.engine are set per cluster, "
        + "limits.max-value-bytes is 32 MiB unless --set gives it.")
final class InsertBench implements Callable<Integer> {

    /** Frame limit for the bench clusters: large streams in flight make log batches and catch-up pages large. */
    static final String VALUE_LIMIT_KEY = "limits.max-value-bytes";
    static final int VALUE_LIMIT = 32 << 20;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output directory (default: bench-results/insert-<timestamp>).")
    Path out;

    @Option(names = "--quick", description = "The seed's sizes only: up to 5000 streams and 32 KB, fewer samples.")
    boolean quick;

    @Option(names = "--samples", description = "(a) traced sequential inserts per scenario (default 5000, quick 2000).")
    Integer samples;

    @Option(names = "--warmup", description = "Unmeasured inserts per cluster first (default 50000, quick 20000).")
    Integer warmup;

    @Option(names = "--in-flight", defaultValue = "16",
            description = "Requests in flight in (b) and (c) (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--counts", split = ",", description = "(b) stream counts instead of the defaults, e.g. 100,500.")
    List<Integer> counts;

    @Option(names = "--sizes-kb", split = ",", description = "(c) stream sizes in KB instead of the defaults.")
    List<Integer> sizesKb;

    @Option(names = "--size-streams", defaultValue = "0",
            description = "(c) streams per size; 0: max(500, min(20000, 32 MiB / size)).")
    int sizeStreams;

    @Option(names = "--keep", description = "Keep the clusters' data and logs (in a temporary directory).")
    boolean keep;

    @Mixin
    BenchOptions.Port port;

    @Mixin
    SettingsOption settings;


    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        System.setProperty("java.awt.headless", "true");
        if (quick && (counts != null || sizesKb != null)) {
            System.err.println("note: --counts / --sizes-kb replace the --quick lists");
        }
        InsertExperiments.Settings s = settings();
        Path dir = out != null ? out : Path.of("bench-results", "insert-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(dir);
        Path work = Files.createTempDirectory("autodisk-bench-insert");
        ProgressBar bar = ProgressBar.onStderr();
        InsertExperiments experiments = new InsertExperiments(s, work, bar, keep);
        Thread onExit = new Thread(() -> {
            experiments.abort();
            if (!keep) {
                LocalBenchNodes.deleteQuietly(work);
            }
        }, "bench-insert-stop");
        Runtime.getRuntime().addShutdownHook(onExit);
        InsertResults r;
        try {
            r = experiments.run();
        } finally {
            bar.finish();
            Runtime.getRuntime().removeShutdownHook(onExit);
            if (!keep) {
                LocalBenchNodes.deleteQuietly(work);
            }
        }
        if (keep) {
            System.out.println("cluster files kept in " + work);
        }
        Path report = InsertOutput.write(r, dir, "./autodisk "
                + String.join(" ", spec.commandLine().getParseResult().originalArgs()), notes());
        Files.readAllLines(report).stream().dropWhile(l -> !l.equals("## Headline")).skip(1)
                .takeWhile(l -> !l.startsWith("## ")).filter(l -> !l.isBlank()).forEach(System.out::println);
        System.out.println("report: " + report + " (CSV files and charts beside it)");
        boolean errors = r.response().stream().anyMatch(x -> x.errors() > 0)
                || r.clusters().stream().anyMatch(c -> c.errors() > 0);
        return errors ? 1 : 0;
    }

    private InsertExperiments.Settings settings() {
        InsertExperiments.Settings d = quick ? InsertExperiments.Settings.quick(port.basePort)
                : InsertExperiments.Settings.full(port.basePort);
        List<Integer> sizes = d.sizesBytes();
        if (sizesKb != null) {
            sizes = sizesKb.stream().map(kb -> kb * 1024).toList();
        }
        String yaml = settings.yaml();
        if (!yaml.contains(VALUE_LIMIT_KEY + ":")) {
            yaml = VALUE_LIMIT_KEY + ": " + VALUE_LIMIT + "\n" + yaml;
        }
        return new InsertExperiments.Settings(samples != null ? samples : d.samples(),
                warmup != null ? warmup : d.warmup(), counts != null ? counts : d.streamCounts(), sizes,
                sizeStreams, inFlight, port.basePort, yaml);
    }

    private List<String> notes() {
        List<String> n = new ArrayList<>();
        n.add(InsertOutput.configurationNote(settings()));
        n.addAll(InsertOutput.commonNotes());
        return n;
    }
}
