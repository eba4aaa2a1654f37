package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.autodisk.bench.InsertResults.ClusterRow;
import org.autodisk.bench.InsertResults.ComponentRow;
import org.autodisk.bench.InsertResults.ResponseRow;
import org.autodisk.bench.InsertResults.SizeRow;
import org.autodisk.bench.InsertResults.Span;
import org.autodisk.bench.InsertResults.StreamsRow;
import org.autodisk.bench.InsertResults.Summary;

/** Writes one CSV file per experiment, with the paper's figure beside ours where it has one. */
final class InsertCsv {

    static final String RESPONSE = "a-response.csv";
    static final String STREAMS = "b-streams.csv";
    static final String SIZES = "c-sizes.csv";
    static final String MULTIPLICITY = "d-multiplicity.csv";
    static final String COMPONENTS = "e-components.csv";
    static final String CLUSTERS = "clusters.csv";

    private static final String LATENCY = "latency_mean_us,latency_p50_us,latency_p99_us";
    private static final String SPAN = "started_ms,finished_ms";

    private InsertCsv() {
    }

    static List<Path> write(InsertResults r, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        List<String> a = new ArrayList<>(List.of("scenario,cluster,path,paper_ref,paper_ms,samples,errors,mean_us,"
                + "p50_us,p99_us,min_us,max_us," + SPAN));
        for (ResponseRow x : r.response()) {
            Summary s = x.roundTrip();
            a.add(join(x.scenario(), x.cluster(), x.path(), x.paperRef(), x.paperMs(), s.count(), x.errors(),
                    s.meanUs(), s.p50Us(), s.p99Us(), s.minUs(), s.maxUs(), span(x.span())));
        }
        files.add(write(dir, RESPONSE, a));
        List<String> b = new ArrayList<>(List.of("multiplicity,mode,streams,errors,total_ms,mean_per_insert_ms,"
                + LATENCY + ",paper_table,paper_total_ms,paper_mean_per_insert_ms," + SPAN));
        for (StreamsRow x : r.streams()) {
            b.add(join(x.multiplicity(), x.mode(), x.streams(), x.errors(), x.totalMs(), x.meanPerInsertMs(),
                    latency(x.latency()), PaperFigures.streamsTable(x.multiplicity()),
                    PaperFigures.totalMs(x.multiplicity(), x.streams()),
                    PaperFigures.meanPerStreamMs(x.multiplicity(), x.streams()), span(x.span())));
        }
        files.add(write(dir, STREAMS, b));
        files.add(write(dir, SIZES, sizes(r)));
        files.add(write(dir, MULTIPLICITY, multiplicity(r)));
        List<String> e = new ArrayList<>(List.of("scenario,component,measured,paper_ms,samples,mean_us,p50_us,"
                + "p99_us,min_us,max_us,note"));
        for (ComponentRow x : r.components()) {
            Summary s = x.ours();
            e.add(s == null ? join(x.scenario(), x.component(), x.measured(), x.paperMs(), "", "", "", "", "", "",
                    x.note()) : join(x.scenario(), x.component(), x.measured(), x.paperMs(), s.count(), s.meanUs(),
                    s.p50Us(), s.p99Us(), s.minUs(), s.maxUs(), x.note()));
        }
        files.add(write(dir, COMPONENTS, e));
        List<String> c = new ArrayList<>(List.of("cluster,data_nodes,log_nodes,multiplicity,store,acked,errors,"
                + "streams_stored,log_records,records_per_fsync," + SPAN + ",error_messages"));
        for (ClusterRow x : r.clusters()) {
            c.add(join(x.name(), x.dataNodes(), x.logNodes(), x.multiplicity(), x.store(), x.acked(), x.errors(),
                    x.streamsStored(), x.logRecords(), x.recordsPerFsync(), span(x.span()),
                    String.join(" | ", x.errorMessages())));
        }
        files.add(write(dir, CLUSTERS, c));
        return files;
    }

    private static List<String> sizes(InsertResults r) {
        List<String> c = new ArrayList<>(List.of("multiplicity,size_bytes,streams,in_flight,errors,total_ms,"
                + "inserts_per_s,kb_per_s," + LATENCY + ",paper_table,paper_streams,paper_time_ms,paper_kb_per_s,"
                + "paper_inserts_per_s," + SPAN));
        for (SizeRow x : r.sizes()) {
            Double paperMs = PaperFigures.sizeTimeMs(x.multiplicity(), x.sizeBytes());
            c.add(join(x.multiplicity(), x.sizeBytes(), x.streams(), x.inFlight(), x.errors(), x.totalMs(),
                    x.insertsPerSecond(), x.kbPerSecond(), latency(x.latency()), PaperFigures.sizesTable(
                    x.multiplicity()), paperMs == null ? null : PaperFigures.SIZE_STREAMS, paperMs,
                    PaperFigures.kbPerSecond(x.multiplicity(), x.sizeBytes()),
                    paperMs == null ? null : PaperFigures.SIZE_STREAMS / (paperMs / 1e3), span(x.span())));
        }
        return c;
    }

    private static List<String> multiplicity(InsertResults r) {
        List<String> d = new ArrayList<>(List.of("measure,mode,point,paper_m1,paper_m2,paper_m2_over_m1,ours_m1,"
                + "ours_m2,ours_m2_over_m1"));
        for (StreamsRow one : r.streams()) {
            StreamsRow two = InsertReport.streamsRow(r, 2, one.mode(), one.streams());
            if (one.multiplicity() == 1 && two != null) {
                Double p1 = PaperFigures.meanPerStreamMs(1, one.streams());
                Double p2 = PaperFigures.meanPerStreamMs(2, one.streams());
                d.add(join("ms per insert", one.mode(), "N=" + one.streams(), p1, p2, ratio(p2, p1),
                        one.meanPerInsertMs(), two.meanPerInsertMs(),
                        two.meanPerInsertMs() / one.meanPerInsertMs()));
            }
        }
        for (SizeRow one : r.sizes()) {
            SizeRow two = InsertReport.sizeRow(r, 2, one.sizeBytes());
            if (one.multiplicity() == 1 && two != null) {
                Double p1 = PaperFigures.kbPerSecond(1, one.sizeBytes());
                Double p2 = PaperFigures.kbPerSecond(2, one.sizeBytes());
                d.add(join("KB/s", "in-flight-" + one.inFlight(), one.sizeBytes() + " B", p1, p2, ratio(p2, p1),
                        one.kbPerSecond(), two.kbPerSecond(), two.kbPerSecond() / one.kbPerSecond()));
            }
        }
        return d;
    }

    private static Double ratio(Double a, Double b) {
        return a == null || b == null ? null : a / b;
    }

    /** Cells already joined: written as they are. */
    private record Raw(String text) {
    }

    private static Raw latency(Summary s) {
        return new Raw(join(s.meanUs(), s.p50Us(), s.p99Us()));
    }

    private static Raw span(Span s) {
        return new Raw(join(s.startedMs(), s.finishedMs()));
    }

    private static Path write(Path dir, String name, List<String> lines) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, lines);
        return p;
    }

    static String join(Object... values) {
        StringBuilder b = new StringBuilder();
        for (Object v : values) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(cell(v));
        }
        return b.toString();
    }

    private static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Raw raw) {
            return raw.text();
        }
        if (v instanceof Double d) {
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf(d.longValue())
                    : String.format(Locale.ROOT, "%.3f", d);
        }
        String s = v.toString();
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
