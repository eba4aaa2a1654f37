package org.autodisk.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.autodisk.bench.MigrateExperiments.Latency;
import org.autodisk.bench.MigrateExperiments.Row;

/** The migration experiments' output: a line per window, CSV, and the Markdown report with the paper beside. */
final class MigrateReport {

    /** Seed 004, Table 11: estimated cost per stream moved autonomously and host-driven, ms. */
    static final double PAPER_AUTONOMOUS_MS = 5.22;
    static final double PAPER_HOST_MS = 12.1;

    /** The target's parts of a move, as its {@code migration.ms.*} counters name them. */
    static final List<String> PARTS = List.of("source-wait", "store", "flush", "commit", "throttle", "catch-up",
            "serve");

    /** The key of {@code migration.paused-ms} among a row's target figures. */
    static final String PAUSED = "paused";

    private MigrateReport() {
    }

    static String line(Row r) {
        return String.format(Locale.ROOT, "%-10s %7d x %5d B run %d %s -> %s: cutover %9.1f ms (%.4f ms/stream), "
                + "ended %9.1f ms; moving-range insert p50/p99/max %s; other range %s", r.mode(), r.streams(),
                r.valueBytes(), r.run(), r.from(), r.to(), r.cutoverMs(), r.msPerStream(), r.totalMs(),
                lat(r.moving()), lat(r.other()));
    }

    private static String lat(Latency l) {
        return l == null ? "-" : String.format(Locale.ROOT, "%.2f/%.2f/%.1f ms (%d, %d failed)", l.p50Us() / 1e3,
                l.p99Us() / 1e3, l.maxUs() / 1e3, l.count(), l.errors());
    }

    static String csv(List<Row> rows) {
        StringBuilder out = new StringBuilder("mode,streams,value_bytes,run,from,to,cutover_ms,total_ms,"
                + "ms_per_stream,bytes,"
                + "moving_count,moving_p50_us,moving_p99_us,moving_max_us,moving_errors,"
                + "other_count,other_p50_us,other_p99_us,other_max_us,other_errors,"
                + String.join(",", PARTS.stream().map(p -> "target_" + p.replace('-', '_') + "_ms").toList())
                + ",target_paused_ms\n");
        for (Row r : rows) {
            out.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%s,%s,%.3f,%.3f,%.6f,%d,%s,%s,%s%n", r.mode(),
                    r.streams(), r.valueBytes(), r.run(), r.from(), r.to(), r.cutoverMs(), r.totalMs(),
                    r.msPerStream(), r.bytes(),
                    csvLat(r.moving()), csvLat(r.other()), String.join(",", Stream.concat(PARTS.stream(),
                            Stream.of(PAUSED)).map(p -> r.targetMs().containsKey(p) ? String.format(Locale.ROOT,
                                    "%.1f", r.targetMs().get(p)) : "").toList())));
        }
        return out.toString();
    }

    private static String csvLat(Latency l) {
        return l == null ? ",,,," : String.format(Locale.ROOT, "%d,%.0f,%.0f,%.0f,%d", l.count(), l.p50Us(), l.p99Us(),
                l.maxUs(), l.errors());
    }

    static String markdown(List<Row> rows, MigrateExperiments.Settings s, String cluster, String command) {
        StringBuilder out = new StringBuilder("# Migration cost: autonomous vs host-driven\n\n");
        out.append("`").append(command).append("` on ").append(cluster).append("; autonomous throttle: ")
                .append(s.rateBytes() == null ? "the target's default (`migration.rate-bytes`)"
                        : s.rateBytes() == 0 ? "unthrottled" : s.rateBytes() + " bytes/s")
                .append(". Each move is timed from the command to its cutover (the range served by the target: copy, ")
                .append("catch-up, cutover; the `ended` column adds the source's clean-up, at least 1 s of grace for ")
                .append("reads in flight); medians over ").append(s.repeat()).append(" moves per mode.\n\n");
        out.append("| streams × value | autonomous ms | ms/stream | streams/s | MB/s | ended ms | host-driven ms | ")
                .append("ms/stream | streams/s | ended ms | host ÷ autonomous |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, List<Row>> e : byExperiment(rows).entrySet()) {
            List<Row> auto = mode(e.getValue(), "autonomous");
            List<Row> host = mode(e.getValue(), "host");
            if (auto.isEmpty() || host.isEmpty()) {
                continue;
            }
            Row first = auto.get(0);
            double a = median(auto, Row::cutoverMs);
            double h = median(host, Row::cutoverMs);
            out.append(String.format(Locale.ROOT, "| %s | %.1f | %.4f | %.0f | %.1f | %.1f | %.1f | %.4f | %.0f | %.1f "
                    + "| %.2f |%n", e.getKey(), a, a / first.streams(), first.streams() / (a / 1e3),
                    first.bytes() / (a / 1e3) / 1e6, median(auto, Row::totalMs), h, h / first.streams(),
                    first.streams() / (h / 1e3), median(host, Row::totalMs), h / a));
        }
        out.append(String.format(Locale.ROOT, "| paper (seed 004, Table 11, estimated) | | %.2f | | | | | %.2f | | "
                + "| %.2f |"
                + "%n%n", PAPER_AUTONOMOUS_MS, PAPER_HOST_MS, PAPER_HOST_MS / PAPER_AUTONOMOUS_MS));
        foreground(out, rows);
        breakdown(out, rows);
        cutovers(out, mode(rows, "cutover"), mode(rows, "cutover-idle"));
        out.append("Redis Cluster on this machine (issue 14, measured before this work): `redis-cli --cluster "
                + "reshard` of 200,000 × 1 KB keys moves 68–79k keys/s with 1,000 keys per MIGRATE while other "
                + "writes on the source drop to ~4% of their rate (p99 17–21 ms); 42–44k keys/s with 100 per "
                + "MIGRATE at p99 2.7 ms.\n");
        return out.toString();
    }

    private static void foreground(StringBuilder out, List<Row> rows) {
        out.append("Foreground inserts, one at a time, during each move (median over the moves of each figure; "
                + "`max` is the largest over them, the longest a write of the moving range waited, the cutover "
                + "included); `idle` is a window without migration before the moves:\n\n");
        out.append("| streams × value | mode | moving range p50 / p99 / max ms | other range of the source p50 / "
                + "p99 / max ms | failed |\n|---|---|---|---|---|\n");
        for (Map.Entry<String, List<Row>> e : byExperiment(rows).entrySet()) {
            for (String mode : List.of("idle", "autonomous", "host")) {
                List<Row> m = mode(e.getValue(), mode);
                if (m.isEmpty()) {
                    continue;
                }
                List<Row> withOther = m.stream().filter(r -> r.other() != null).toList();
                long failed = m.stream().mapToLong(r -> r.moving().errors()
                        + (r.other() == null ? 0 : r.other().errors())).sum();
                out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d |%n", e.getKey(), mode,
                        figures(m, Row::moving), withOther.isEmpty() ? "-" : figures(withOther, Row::other), failed));
            }
        }
        out.append('\n');
    }

    /** Where a move's time goes, per stream, like the seed's Table 11 (median over the moves of each part). */
    private static void breakdown(StringBuilder out, List<Row> rows) {
        out.append("Where the time goes, µs per stream to the cutover (median over the moves; like the seed's Table "
                + "11). Measured on the target (its `migration.ms.*` counters): *source* is waiting for the "
                + "source's chunks (its snapshot read and the network: the paper's disk-to-disk communication), "
                + "*store* and *flush* the target's disk I/O, *commit* the metadata commits on the path (the last "
                + "progress record and the cutover), *catch-up* reading and applying the ledgers, *serve* from the "
                + "cutover's commit until the target serves; *host* is what the host-driven move spends outside the "
                + "target (reading with traverse, sending pages); *other* the rest (the start: the command's "
                + "commit and the target noticing it, up to 100 ms). Rules take no time per stream: they decide a "
                + "migration once.\n\n");
        out.append("| streams × value | mode | total | host | source | store | flush | commit | throttle | catch-up "
                + "| serve | other |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, List<Row>> e : byExperiment(rows).entrySet()) {
            for (String mode : List.of("autonomous", "host")) {
                List<Row> m = mode(e.getValue(), mode);
                if (!m.isEmpty()) {
                    out.append(breakdownLine(e.getKey(), mode, m));
                }
            }
        }
        out.append(String.format(Locale.ROOT, "| paper, estimated | autonomous | %.0f | - | 320 | 2,640 (disk I/O) "
                + "| | | | | | rules 2 × 1,130 |%n| paper, estimated | host-driven | %.0f | 4 × 1,800 | - | 2,640 "
                + "(disk I/O) | | | | | | rules 2 × 1,130 |%n%n", PAPER_AUTONOMOUS_MS * 1000, PAPER_HOST_MS * 1000));
    }

    private static String breakdownLine(String experiment, String mode, List<Row> moves) {
        int n = moves.get(0).streams();
        double total = median(moves, Row::cutoverMs);
        double parts = 0;
        StringBuilder cells = new StringBuilder();
        for (String p : PARTS) {
            double ms = median(moves, r -> r.targetMs().getOrDefault(p, 0.0));
            parts += ms;
            cells.append(String.format(Locale.ROOT, " %.1f |", ms * 1000 / n));
        }
        double outside = Math.max(0, total - parts);
        boolean host = mode.equals("host");
        return String.format(Locale.ROOT, "| %s | %s | %.1f | %s |%s %s |%n", experiment, mode, total * 1000 / n,
                host ? String.format(Locale.ROOT, "%.1f", outside * 1000 / n) : "-", cells,
                host ? "-" : String.format(Locale.ROOT, "%.1f", outside * 1000 / n));
    }

    /**
     * The cutover experiment: how long the moving range's writes paused at each move (the target's
     * {@code migration.paused-ms}: from the source's stop to the target serving), and each move's longest insert wait
     * beside the longest wait of windows without a move.
     */
    private static void cutovers(StringBuilder out, List<Row> moves, List<Row> idle) {
        if (moves.isEmpty()) {
            return;
        }
        double[] paused = moves.stream().filter(r -> r.targetMs().getOrDefault(PAUSED, 0.0) > 0)
                .mapToDouble(r -> r.targetMs().get(PAUSED)).sorted().toArray();
        double[] waits = moves.stream().mapToDouble(r -> r.moving().maxUs() / 1e3).sorted().toArray();
        long failed = moves.stream().mapToLong(r -> r.moving().errors()).sum();
        out.append(String.format(Locale.ROOT, "Cutover pause: a range of %,d × 1 KB streams moved %d times around "
                + "the data nodes, unthrottled, while one client thread inserts into it one insert at a time. ",
                moves.get(0).streams(), moves.size()));
        out.append(paused.length == 0 ? "No move was handed over (the target's `migration.paused-ms` did not rise). "
                : String.format(Locale.ROOT, "**Writes paused** (from the source's stop to the target serving, "
                + "the target's `migration.paused-ms`; %d of the moves were handed over): p50 %.1f ms, p99 %.1f ms, "
                + "max %.1f ms. ", paused.length, percentile(paused, 50), percentile(paused, 99),
                paused[paused.length - 1]));
        out.append(String.format(Locale.ROOT, "The longest insert wait of each move (an upper bound: any slow insert "
                + "during the move counts): p50 %.1f ms, p99 %.1f ms, max %.1f ms", percentile(waits, 50),
                percentile(waits, 99), waits[waits.length - 1]));
        if (!idle.isEmpty()) {
            double[] still = idle.stream().mapToDouble(r -> r.moving().maxUs() / 1e3).sorted().toArray();
            out.append(String.format(Locale.ROOT, "; of %d windows of %.0f ms without a move, for comparison: "
                    + "p50 %.1f ms, max %.1f ms", still.length, idle.get(0).cutoverMs(), percentile(still, 50),
                    still[still.length - 1]));
        }
        out.append(String.format(Locale.ROOT, ". The inserts' own p50 / p99 over all moves %.2f / %.2f ms; median "
                + "move to cutover %.1f ms; %d inserts failed.%n%n", median(moves, r -> r.moving().p50Us()) / 1e3,
                median(moves, r -> r.moving().p99Us()) / 1e3, median(moves, Row::cutoverMs), failed));
    }

    /** The nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static String figures(List<Row> rows, Function<Row, Latency> which) {
        double max = rows.stream().mapToDouble(r -> which.apply(r).maxUs()).max().orElse(0);
        return String.format(Locale.ROOT, "%.2f / %.2f / %.1f", median(rows, r -> which.apply(r).p50Us()) / 1e3,
                median(rows, r -> which.apply(r).p99Us()) / 1e3, max / 1e3);
    }

    private static Map<String, List<Row>> byExperiment(List<Row> rows) {
        Map<String, List<Row>> out = new LinkedHashMap<>();
        for (Row r : rows) {
            out.computeIfAbsent(String.format(Locale.ROOT, "%,d × %d B", r.streams(), r.valueBytes()),
                    k -> new ArrayList<>()).add(r);
        }
        return out;
    }

    private static List<Row> mode(List<Row> rows, String mode) {
        return rows.stream().filter(r -> r.mode().equals(mode)).toList();
    }

    static double median(List<Row> rows, ToDoubleFunction<Row> f) {
        double[] v = rows.stream().mapToDouble(f).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
