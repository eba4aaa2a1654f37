package org.autodisk.bench;

import static org.autodisk.bench.InsertReport.factor;
import static org.autodisk.bench.InsertReport.ms;
import static org.autodisk.bench.InsertReport.num;
import static org.autodisk.bench.InsertReport.us;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.autodisk.bench.InsertResults.ComponentRow;
import org.autodisk.bench.InsertResults.ResponseRow;
import org.autodisk.bench.InsertResults.SizeRow;
import org.autodisk.bench.InsertResults.StreamsRow;

/** The report's title, set-up and headline figures. */
final class InsertReportHeader {

    private InsertReportHeader() {
    }

    static void header(List<String> md, InsertResults r, String command) {
        InsertExperiments.Settings s = r.settings();
        md.add("# Insert cost: seed 004's experiments on AutoDisk, " + r.kind());
        md.add("");
        md.add("Run started " + r.started() + " and took " + ProgressBar.clock((long) (r.durationMs() * 1e6))
                + ": `" + command + "`.");
        md.add("");
        md.add("- **Ours (" + r.kind() + "):** " + machine() + ". " + r.nodes() + "; data nodes store in RocksDB, "
                + "log nodes append with one fsync per batch (group commit); nodes, client and disk share one "
                + "machine. Each cluster had a warm-up of "
                + String.format(Locale.ROOT, "%,d", s.warmup()) + " 1 KB inserts (" + s.inFlight()
                + " in flight) before it was measured. Every request enters at d1.");
        md.add("- **Paper:** four PCs (Pentium II 450 MHz, 128 MB, Linux 2.2) on a LAN, the prototype in Java; "
                + "the host a PC of the same kind with Windows NT.");
        md.add("- Our figures are in milliseconds beside the paper's. *paper ÷ ours* is how many times less time "
                + "we take, *ours ÷ paper* how many times the paper's throughput we reach. \"—\": the paper has no "
                + "figure for that row (counts and sizes beyond its tables) or we do not measure it.");
        md.add("- The numbers behind every table are in the CSV files beside this report: "
                + String.join(", ", Stream.of(InsertCsv.RESPONSE, InsertCsv.STREAMS, InsertCsv.SIZES,
                        InsertCsv.MULTIPLICITY, InsertCsv.COMPONENTS, InsertCsv.CLUSTERS)
                        .map(f -> "[" + f + "](" + f + ")").toList()) + ".");
        md.add("");
    }

    static void headline(List<String> md, InsertResults r) {
        md.add("## Headline");
        md.add("");
        response(md, InsertReport.responseRow(r, PaperFigures.RESPONSE_1D_1L_MS), "1 data + 1 log node");
        response(md, InsertReport.responseRow(r, PaperFigures.RESPONSE_2D_1L_MS), "2 data + 1 log, forwarded");
        queue(md, r);
        String k = "in-flight-" + r.settings().inFlight();
        for (int m = 1; m <= 2; m++) {
            StreamsRow seq = InsertReport.streamsRow(r, m, "sequential", 5000);
            StreamsRow par = InsertReport.streamsRow(r, m, k, 5000);
            if (seq != null && par != null) {
                md.add("- **Time per insert, 5,000 streams, m=" + m + "** (" + PaperFigures.streamsTable(m)
                        + "): paper " + ms(PaperFigures.meanPerStreamMs(m, 5000)) + " ms; ours "
                        + ms(seq.meanPerInsertMs()) + " ms sequential, " + ms(par.meanPerInsertMs()) + " ms with "
                        + r.settings().inFlight() + " in flight ("
                        + factor(PaperFigures.meanPerStreamMs(m, 5000), par.meanPerInsertMs()) + " faster).");
            }
        }
        for (int m = 1; m <= 2; m++) {
            throughput(md, InsertReport.sizeRow(r, m, 1024), InsertReport.sizeRow(r, m, 32 * 1024), m);
        }
        extended(md, r, k);
        md.add("");
    }

    private static void response(List<String> md, ResponseRow x, String what) {
        if (x != null) {
            md.add("- **One insert, " + what + "** (§3.3): paper " + ms(x.paperMs()) + " ms; ours "
                    + us(x.roundTrip().meanUs()) + " ms mean, " + us(x.roundTrip().p50Us()) + " ms p50, "
                    + us(x.roundTrip().p99Us()) + " ms p99 (" + factor(x.paperMs(), x.roundTrip().meanUs() / 1e3)
                    + " faster).");
        }
    }

    private static void queue(List<String> md, InsertResults r) {
        ResponseRow fwd = InsertReport.responseRow(r, PaperFigures.RESPONSE_2D_1L_MS);
        if (fwd == null) {
            return;
        }
        ComponentRow entry = InsertReport.component(r, fwd.scenario(), "queue wait (entry node)");
        ComponentRow owner = InsertReport.component(r, fwd.scenario(), "queue wait (owner)");
        if (entry != null && owner != null) {
            md.add("- **Queue wait** (Table 5): paper 213 ms per queue; ours " + us(entry.ours().meanUs())
                    + " ms mean at the entry node and " + us(owner.ours().meanUs()) + " ms at the owner (p50 "
                    + us(entry.ours().p50Us()) + " / " + us(owner.ours().p50Us()) + " ms).");
        }
    }

    private static void throughput(List<String> md, SizeRow small, SizeRow large, int m) {
        if (small == null || large == null) {
            return;
        }
        md.add("- **Throughput, m=" + m + "** (" + PaperFigures.sizesTable(m) + "): 1 KB streams paper "
                + num(PaperFigures.kbPerSecond(m, 1024)) + " KB/s, ours " + num(small.kbPerSecond()) + " KB/s ("
                + num(small.insertsPerSecond()) + " inserts/s, " + factor(small.kbPerSecond(),
                PaperFigures.kbPerSecond(m, 1024)) + " the paper's); 32 KB streams paper "
                + num(PaperFigures.kbPerSecond(m, 32 * 1024)) + " KB/s, ours " + num(large.kbPerSecond())
                + " KB/s (" + factor(large.kbPerSecond(), PaperFigures.kbPerSecond(m, 32 * 1024)) + " the paper's).");
    }

    private static void extended(List<String> md, InsertResults r, String k) {
        r.streams().stream().filter(x -> x.mode().equals(k)).mapToInt(StreamsRow::streams).max()
                .stream().filter(n -> n > 5000).forEach(n -> {
                    StreamsRow one = InsertReport.streamsRow(r, 1, k, n);
                    StreamsRow seq = InsertReport.streamsRow(r, 1, "sequential", n);
                    if (one != null && seq != null) {
                        md.add("- **Beyond the paper, " + String.format(Locale.ROOT, "%,d", n) + " streams, m=1:** "
                                + ms(seq.meanPerInsertMs()) + " ms per insert sequential, "
                                + ms(one.meanPerInsertMs()) + " ms in flight.");
                    }
                });
        r.sizes().stream().filter(x -> x.multiplicity() == 1).mapToInt(SizeRow::sizeBytes).max().stream()
                .filter(b -> b > 32 * 1024).forEach(b -> {
                    SizeRow x = InsertReport.sizeRow(r, 1, b);
                    md.add("- **Beyond the paper, " + InsertReport.size(b) + " streams, m=1:** "
                            + num(x.kbPerSecond() / 1024) + " MB/s (" + num(x.insertsPerSecond()) + " inserts/s).");
                });
    }

    private static String machine() {
        String cpu = "";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("");
        } catch (IOException | RuntimeException e) {
            cpu = "";
        }
        return Runtime.getRuntime().availableProcessors() + " cores" + (cpu.isEmpty() ? "" : " (" + cpu + ")")
                + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
    }
}
