package org.autodisk.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** The live directory benchmark's table, ratios, CSV, Markdown report and chart. */
final class DirectoryLiveReport {

    static final String HEADER = String.format(Locale.ROOT, "%-10s %5s %6s %8s %10s %8s %8s %6s %6s %7s %6s %6s",
            "directory", "round", "ratio", "ops", "ops/s", "searches", "inserts", "splits", "errors", "ranges",
            "levels", "pages");
    private static final String CHART = "a-throughput-by-update-ratio.png";
    private static final Color[] COLORS = {new Color(0x55, 0x99, 0x55), new Color(0x1f, 0x5f, 0xbf)};

    private DirectoryLiveReport() {
    }

    static String line(DirectoryLiveBench.Row r) {
        return String.format(Locale.ROOT, "%-10s %5d %6.2f %8d %10.0f %8d %8d %6d %6d %7d %6d %6d", r.kind(),
                r.round(), r.ratio(), r.ops(), r.opsPerSecond(), r.searches(), r.inserts(), r.splits(), r.errors(),
                r.rangesAfter(), r.levels(), r.indexPages());
    }

    /** Fat-Btree ÷ range map per ratio, each round's pair measured back to back on fresh clusters. */
    static String ratios(List<DirectoryLiveBench.Row> rows) {
        StringBuilder out = new StringBuilder("\nfat-btree ÷ range map, ops/s (per round; median over rounds):\n");
        for (double ratio : rows.stream().mapToDouble(DirectoryLiveBench.Row::ratio).distinct().toArray()) {
            List<Double> each = new ArrayList<>();
            for (int round : rows.stream().mapToInt(DirectoryLiveBench.Row::round).distinct().toArray()) {
                each.add(find(rows, "fat-btree", round, ratio) / find(rows, "range", round, ratio));
            }
            out.append(String.format(Locale.ROOT, "  update ratio %.2f: %s -> median %.2f%n", ratio,
                    each.stream().map(x -> String.format(Locale.ROOT, "%.2f", x)).toList(), median(each)));
        }
        return out.toString();
    }

    private static double find(List<DirectoryLiveBench.Row> rows, String kind, int round, double ratio) {
        return rows.stream().filter(r -> r.kind().equals(kind) && r.round() == round && r.ratio() == ratio)
                .findFirst().orElseThrow().opsPerSecond();
    }

    static double median(List<Double> xs) {
        List<Double> s = xs.stream().sorted().toList();
        return s.size() % 2 == 1 ? s.get(s.size() / 2) : (s.get(s.size() / 2 - 1) + s.get(s.size() / 2)) / 2;
    }

    static void write(List<DirectoryLiveBench.Row> rows, DirectoryLiveBench b, Path dir) throws IOException {
        List<String> csv = new ArrayList<>(List.of("directory,round,update_ratio,ops,ops_per_second,searches,inserts,"
                + "splits,errors,ranges_after,levels,index_pages,data_nodes,fanout,in_flight,split_every"));
        rows.forEach(r -> csv.add(String.format(Locale.ROOT, "%s,%d,%.3f,%d,%.1f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d",
                r.kind(), r.round(), r.ratio(), r.ops(), r.opsPerSecond(), r.searches(), r.inserts(), r.splits(),
                r.errors(), r.rangesAfter(), r.levels(), r.indexPages(), b.dataNodes, b.fanout, b.inFlight,
                b.splitEvery)));
        Files.write(dir.resolve("results.csv"), csv);
        chart(rows, dir.resolve(CHART));
        StringBuilder md = new StringBuilder("# Directory on a real cluster: range map vs Fat-Btree\n\n");
        md.append(String.format(Locale.ROOT, "`./autodisk bench directory-live` on this machine: %d data nodes and 1 "
                + "log node as local processes, %d ranges at creation, Fat-Btree fanout %d; per ratio %,d "
                + "operations with %d in flight through one node, one range split per %d inserts; clusters of the "
                + "two kinds alternate, %d rounds.%n%n| directory | round | update ratio | ops/s | searches | "
                + "inserts | splits | errors | ranges after | levels | index pages |%n|---|---|---|---|---|---|---|"
                + "---|---|---|---|%n", b.dataNodes, b.ranges, b.fanout, b.ops, b.inFlight, b.splitEvery,
                b.rounds));
        rows.forEach(r -> md.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.0f | %d | %d | %d | %d | %d | "
                + "%d | %d |%n", r.kind(), r.round(), r.ratio(), r.opsPerSecond(), r.searches(), r.inserts(),
                r.splits(), r.errors(), r.rangesAfter(), r.levels(), r.indexPages())));
        md.append("\n```\n").append(ratios(rows).trim()).append("\n```\n\n![").append(CHART).append("](")
                .append(CHART).append(")\n");
        Files.writeString(dir.resolve("report.md"), md.toString());
    }

    private static void chart(List<DirectoryLiveBench.Row> rows, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart c = new XYChartBuilder().width(960).height(600).title("Throughput as the update ratio rises (median "
                + "over rounds)").xAxisTitle("update ratio (share of inserts)").yAxisTitle("operations / s").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setMarkerSize(8);
        double[] xs = rows.stream().mapToDouble(DirectoryLiveBench.Row::ratio).distinct().sorted().toArray();
        for (int k = 0; k < DirectoryLiveBench.KINDS.size(); k++) {
            String kind = DirectoryLiveBench.KINDS.get(k);
            double[] ys = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                double x = xs[i];
                ys[i] = median(rows.stream().filter(r -> r.kind().equals(kind) && r.ratio() == x)
                        .map(DirectoryLiveBench.Row::opsPerSecond).toList());
            }
            XYSeries s = c.addSeries(kind, xs, ys);
            s.setLineColor(COLORS[k]);
            s.setMarkerColor(COLORS[k]);
        }
        InsertCharts.save(c, file);
    }
}
