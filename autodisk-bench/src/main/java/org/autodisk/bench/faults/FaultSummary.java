package org.autodisk.bench.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a fault run did and found: operations by kind and outcome, faults by kind, availability (the share of
 * operations that succeeded) while each kind of fault was under way, the anomalies the checker found, and whether the
 * cluster settled after the faults healed.
 *
 * @param seed      the run's seed (replay it with {@code --seed})
 * @param ops       every operation
 * @param faults    every fault
 * @param anomalies what the checker found
 * @param unsettled what was still wrong when the cluster had had its time to settle (empty: it settled)
 * @param elapsed   how long the run took
 */
public record FaultSummary(long seed, List<Op> ops, List<FaultWindow> faults, List<HistoryChecker.Anomaly> anomalies,
        List<String> unsettled, Duration elapsed) {

    /** How many anomalies a report details. */
    private static final int DETAILED = 20;

    /** Copies the lists. */
    public FaultSummary {
        ops = List.copyOf(ops);
        faults = List.copyOf(faults);
        anomalies = List.copyOf(anomalies);
        unsettled = List.copyOf(unsettled);
    }

    /**
     * Tells whether the run found nothing wrong.
     *
     * @return true if no anomaly and the cluster settled
     */
    public boolean passed() {
        return anomalies.isEmpty() && unsettled.isEmpty();
    }

    /**
     * Counts operations by kind and outcome.
     *
     * @return e.g. {@code write ok} to its count
     */
    public Map<String, Long> counts() {
        return ops.stream().collect(Collectors.groupingBy(o -> o.kind().name().toLowerCase(Locale.ROOT) + " "
                + o.outcome().name().toLowerCase(Locale.ROOT), TreeMap::new, Collectors.counting()));
    }

    /**
     * The share of the workers' operations that succeeded while each kind of fault was under way.
     *
     * @return fault kind ({@code none}: between faults) to {@code [ok, all]}
     */
    public Map<String, long[]> availability() {
        Map<String, long[]> out = new TreeMap<>();
        for (Op o : ops) {
            if (o.worker() >= 0) {
                long[] a = out.computeIfAbsent(o.fault().split(" ")[0], k -> new long[2]);
                a[0] += o.outcome() == Op.Outcome.OK ? 1 : 0;
                a[1]++;
            }
        }
        return out;
    }

    /**
     * Renders the summary as Markdown.
     *
     * @return the report
     */
    public String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("# Fault run, seed ").append(seed).append("\n\n");
        b.append(String.format(Locale.ROOT, "%d operations, %d faults, %d anomalies, cluster %s, %.0f s%n%n",
                ops.size(), faults.size(), anomalies.size(), unsettled.isEmpty() ? "settled" : "NOT settled: "
                        + unsettled, elapsed.toMillis() / 1000.0));
        b.append("| operation | count |\n|---|---|\n");
        counts().forEach((k, v) -> b.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        b.append("\n| fault under way | faults | operations | succeeded |\n|---|---|---|---|\n");
        availability().forEach((k, a) -> b.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f %% |%n", k,
                faults.stream().filter(f -> f.kind().label().equals(k)).count(), a[1], 100.0 * a[0] / a[1])));
        if (!anomalies.isEmpty()) {
            b.append("\n## Anomalies (first ").append(Math.min(DETAILED, anomalies.size())).append(")\n\n");
            anomalies.stream().limit(DETAILED).forEach(a -> b.append("- key ").append(a.key()).append(": ")
                    .append(a.what()).append(": ").append(a.ops()).append('\n'));
        }
        return b.toString();
    }

    /**
     * Writes {@code report.md} and {@code faults.csv} (one line per fault: kind, victim, start and end in ms from the
     * first operation) into a directory.
     *
     * @param dir the directory, created if missing
     * @throws IOException if it cannot be written
     */
    public void write(Path dir) throws IOException {
        write(dir, "");
    }

    /**
     * Writes the report as {@link #write(Path)} does, with a paragraph saying how it was run under its title.
     *
     * @param dir   the directory, created if missing
     * @param about e.g. the command and the cluster; empty for none
     * @throws IOException if it cannot be written
     */
    public void write(Path dir, String about) throws IOException {
        Files.createDirectories(dir);
        String md = markdown();
        if (!about.isEmpty()) {
            int title = md.indexOf("\n\n") + 2;
            md = md.substring(0, title) + about + "\n\n" + md.substring(title);
        }
        Files.writeString(dir.resolve("report.md"), md);
        long origin = ops.stream().mapToLong(Op::invoke).min().orElse(0);
        StringBuilder csv = new StringBuilder("kind,victim,start_ms,end_ms\n");
        faults.forEach(f -> csv.append(f.kind().label()).append(',').append(f.victim()).append(',')
                .append((f.start() - origin) / 1_000_000).append(',').append((f.end() - origin) / 1_000_000)
                .append('\n'));
        Files.writeString(dir.resolve("faults.csv"), csv);
    }
}
