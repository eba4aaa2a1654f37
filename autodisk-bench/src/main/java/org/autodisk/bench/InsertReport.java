package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.autodisk.bench.InsertResults.ClusterRow;
import org.autodisk.bench.InsertResults.ComponentRow;
import org.autodisk.bench.InsertResults.ResponseRow;
import org.autodisk.bench.InsertResults.SizeRow;
import org.autodisk.bench.InsertResults.StreamsRow;
import org.autodisk.bench.InsertResults.Summary;

/** Writes the Markdown report: for every row, the paper's figure beside ours. */
final class InsertReport {

    static final String FILE = "report.md";
    static final String NONE = "—";
    private static final String SEQ = "sequential";

    private InsertReport() {
    }

    static Path write(InsertResults r, Path dir, String command, List<String> charts, List<String> notes)
            throws IOException {
        List<String> md = new ArrayList<>();
        InsertReportHeader.header(md, r, command);
        InsertReportHeader.headline(md, r);
        response(md, r);
        streams(md, r, charts);
        sizes(md, r, charts);
        InsertReportTables.multiplicity(md, r, charts);
        InsertReportTables.components(md, r);
        clusters(md, r);
        md.add("## Notes");
        md.add("");
        notes.forEach(n -> md.add("- " + n));
        md.add("");
        Path p = dir.resolve(FILE);
        Files.write(p, md);
        return p;
    }

    private static void response(List<String> md, InsertResults r) {
        md.add("## (a) Response time of one insert (§3.3, Table 3)");
        md.add("");
        md.add("Sequential 1 KB inserts, each a new stream and each traced, " + r.settings().samples()
                + " per scenario, entering at d1. Table 3's rows are the paper's queue-and-network experiment "
                + "without disk access; ours is cluster Q (no log node, in-memory store).");
        md.add("");
        md.add("| scenario | path | paper | paper ms | ours mean ms | ours p50 ms | ours p99 ms | samples | errors "
                + "| paper ÷ ours (mean) |");
        md.add("|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
        for (ResponseRow x : r.response()) {
            Summary s = x.roundTrip();
            md.add(row(x.scenario(), x.path(), x.paperRef(), ms(x.paperMs()), us(s.meanUs()), us(s.p50Us()),
                    us(s.p99Us()), s.count(), x.errors(), factor(x.paperMs(), s.meanUs() / 1e3)));
        }
        md.add("");
    }

    private static void streams(List<String> md, InsertResults r, List<String> charts) {
        String k = r.settings().inFlight() + " in flight";
        md.add("## (b) Mean time per insert for N streams (Tables 6, 7)");
        md.add("");
        md.add("N new 1 KB streams through d1, keys alternating between d1's and d2's range (every other insert "
                + "forwarded), m=1: cluster B (2 data + 1 log), m=2: cluster C (2 data + 2 log). Time per insert = "
                + "total time / N, as in the paper. *sequential*: each insert is sent when the previous one was "
                + "answered; *" + k + "*: the client keeps " + r.settings().inFlight() + " requests outstanding. "
                + "The paper's host overlapped requests too (14 ms per insert against a 223 ms response time), so "
                + "the in-flight column is the like-for-like one.");
        md.add("");
        md.add("| m | N | paper total ms | paper ms/insert | ours sequential total ms | ms/insert | ours " + k
                + " total ms | ms/insert | paper ÷ ours (" + k + ") |");
        md.add("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (StreamsRow one : r.streams()) {
            if (!one.mode().equals(SEQ)) {
                continue;
            }
            StreamsRow par = streamsRow(r, one.multiplicity(), "in-flight-" + r.settings().inFlight(),
                    one.streams());
            Double paperMean = PaperFigures.meanPerStreamMs(one.multiplicity(), one.streams());
            md.add(row(one.multiplicity(), String.format(Locale.ROOT, "%,d", one.streams()),
                    ms(PaperFigures.totalMs(one.multiplicity(), one.streams())), ms(paperMean), ms(one.totalMs()),
                    ms(one.meanPerInsertMs()), par == null ? NONE : ms(par.totalMs()),
                    par == null ? NONE : ms(par.meanPerInsertMs()),
                    par == null ? NONE : factor(paperMean, par.meanPerInsertMs())));
        }
        md.add("");
        chart(md, charts, InsertCharts.STREAMS, "time per insert by stream count, paper and ours");
    }

    private static void sizes(List<String> md, InsertResults r, List<String> charts) {
        md.add("## (c) Throughput by stream size (Tables 8, 9)");
        md.add("");
        md.add("New streams of one size through d1 (keys alternating between the two ranges), "
                + r.settings().inFlight() + " requests in flight. The paper inserted 500 streams per size; we "
                + "insert " + (r.settings().sizeStreams() > 0 ? String.valueOf(r.settings().sizeStreams())
                : "max(500, min(20,000, 32 MiB / size))") + ". KB = 1024 bytes.");
        md.add("");
        md.add("| m | size | streams (paper / ours) | paper ms | paper KB/s | paper inserts/s | ours ms "
                + "| ours inserts/s | ours KB/s | ours p99 ms | ours ÷ paper (KB/s) |");
        md.add("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (SizeRow x : r.sizes()) {
            Double paperMs = PaperFigures.sizeTimeMs(x.multiplicity(), x.sizeBytes());
            Double paperKb = PaperFigures.kbPerSecond(x.multiplicity(), x.sizeBytes());
            md.add(row(x.multiplicity(), size(x.sizeBytes()), (paperMs == null ? NONE : "500") + " / "
                    + String.format(Locale.ROOT, "%,d", x.streams()),
                    ms(paperMs), num(paperKb), paperMs == null ? NONE : num(PaperFigures.SIZE_STREAMS / paperMs * 1e3),
                    ms(x.totalMs()), num(x.insertsPerSecond()), num(x.kbPerSecond()), us(x.latency().p99Us()),
                    paperKb == null ? NONE : factor(x.kbPerSecond(), paperKb)));
        }
        md.add("");
        chart(md, charts, InsertCharts.SIZES, "throughput by stream size, paper and ours");
    }

    private static void clusters(List<String> md, InsertResults r) {
        md.add("## Clusters");
        md.add("");
        md.add("Every insert made a new stream, so the streams the data nodes hold at the end must equal the "
                + "inserts acknowledged (warm-up included); each log node appends every record shipped to it.");
        md.add("");
        md.add("| cluster | data + log nodes | m | store | inserts acked | errors | streams stored "
                + "| log records | records per fsync | ran (s) |");
        md.add("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|");
        for (ClusterRow c : r.clusters()) {
            md.add(row(c.name(), c.dataNodes() + " + " + c.logNodes(), c.logNodes() == 0 ? NONE : c.multiplicity(),
                    c.store(), c.acked(), c.errors(), c.streamsStored(), c.logNodes() == 0 ? NONE : c.logRecords(),
                    c.logNodes() == 0 ? NONE : num(c.recordsPerFsync()),
                    num((c.span().finishedMs() - c.span().startedMs()) / 1e3)));
        }
        md.add("");
        for (ClusterRow c : r.clusters()) {
            c.errorMessages().forEach(e -> md.add("- " + c.name() + " failed inserts, e.g.: " + e));
        }
        if (r.clusters().stream().anyMatch(c -> !c.errorMessages().isEmpty())) {
            md.add("");
        }
    }

    static void chart(List<String> md, List<String> charts, String file, String alt) {
        if (charts.contains(file)) {
            md.add("![" + alt + "](" + file + ")");
            md.add("");
        }
    }

    static StreamsRow streamsRow(InsertResults r, int m, String mode, int n) {
        return r.streams().stream().filter(x -> x.multiplicity() == m && x.mode().equals(mode) && x.streams() == n)
                .findFirst().orElse(null);
    }

    static SizeRow sizeRow(InsertResults r, int m, int sizeBytes) {
        return r.sizes().stream().filter(x -> x.multiplicity() == m && x.sizeBytes() == sizeBytes).findFirst()
                .orElse(null);
    }

    static ResponseRow responseRow(InsertResults r, double paperMs) {
        return r.response().stream().filter(x -> x.paperMs() != null && x.paperMs() == paperMs).findFirst()
                .orElse(null);
    }

    /** The scenarios (e) shows: those with a §3.3 figure, in run order. */
    static List<String> componentScenarios(InsertResults r) {
        Set<String> s = new LinkedHashSet<>();
        r.response().stream().filter(x -> "§3.3".equals(x.paperRef())).forEach(x -> s.add(x.scenario()));
        return List.copyOf(s);
    }

    static ComponentRow component(InsertResults r, String scenario, String component) {
        return r.components().stream().filter(c -> c.scenario().equals(scenario) && c.component().equals(component))
                .findFirst().orElse(null);
    }

    static String row(Object... cells) {
        StringBuilder b = new StringBuilder("|");
        for (Object c : cells) {
            b.append(' ').append(c).append(" |");
        }
        return b.toString();
    }

    /** A time in milliseconds, or "—". */
    static String ms(Double v) {
        if (v == null) {
            return NONE;
        }
        double a = Math.abs(v);
        String f = a >= 100 ? "%,.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, f, v);
    }

    /** A time given in microseconds, shown in milliseconds. */
    static String us(double micros) {
        return ms(micros / 1e3);
    }

    /** A rate or count with sensible precision, or "—". */
    static String num(Double v) {
        if (v == null) {
            return NONE;
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%,.0f" : "%.1f", v);
    }

    /** "×123" for how many times {@code a} is {@code b}, or "—". */
    static String factor(Double a, double b) {
        if (a == null || b <= 0) {
            return NONE;
        }
        double f = a / b;
        return "×" + String.format(Locale.ROOT, f >= 100 ? "%,.0f" : f >= 10 ? "%.0f" : "%.1f", f);
    }

    static String size(int bytes) {
        return bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MB"
                : bytes % 1024 == 0 ? bytes / 1024 + " KB" : bytes + " B";
    }
}
