package org.autodisk.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.autodisk.node.directory.fatbtree.DirectorySimulation;
import org.autodisk.node.directory.fatbtree.DirectorySimulation.Figures;
import org.autodisk.node.directory.fatbtree.Layout;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** The directory simulation's table, ratios, CSV, Markdown report and charts. */
final class DirectoryReport {

    static final String MARKDOWN = "report.md";
    static final String CSV = "results.csv";
    static final String HEADER = String.format(Locale.ROOT, "%-13s %5s %7s %6s %6s %9s %8s %9s %10s %10s %12s %12s "
            + "%4s %4s %5s %8s", "layout", "nodes", "leaves", "levels", "pages", "msg/split", "max", "msg/move",
            "B/split", "B/move", "idx B/node", "idx B max", "p50", "p99", "mean", "busiest");

    private static final String[] CHARTS = {"a-messages-per-split.png", "b-messages-per-move.png",
        "c-index-bytes-per-node.png", "d-hops-p99.png"};
    private static final Color[] COLORS = {new Color(0x1f, 0x5f, 0xbf), new Color(0xc0, 0x30, 0x30),
        new Color(0x55, 0x99, 0x55)};

    private DirectoryReport() {
    }

    static String line(Figures f) {
        return String.format(Locale.ROOT, "%-13s %5d %7d %6d %6d %9.2f %8d %9.2f %10.0f %10.0f %12.0f %12d %4d %4d "
                + "%5.2f %7.1f%%", f.layout().label(), f.config().nodes(), f.leaves(), f.levels(), f.indexPages(),
                f.messagesPerSplit(), f.maxSplitMessages(), f.messagesPerMove(), f.bytesPerSplit(), f.bytesPerMove(),
                f.indexBytesMean(), f.indexBytesMax(), f.hopsAt(50), f.hopsAt(99), f.hopsMean(),
                100 * f.busiestShare());
    }

    static String ratios(List<Figures> all) {
        StringBuilder out = new StringBuilder("\nreplicated ÷ fat-btree (same run, same operations):\n");
        for (int n : all.stream().mapToInt(f -> f.config().nodes()).distinct().toArray()) {
            Figures fat = find(all, Layout.FAT_BTREE, n);
            Figures rep = find(all, Layout.REPLICATED, n);
            out.append(String.format(Locale.ROOT, "  %4d nodes: messages per split %s, per move %s, index bytes "
                    + "per node %s%n", n, ratio(rep.messagesPerSplit(), fat.messagesPerSplit()),
                    ratio(rep.messagesPerMove(), fat.messagesPerMove()),
                    ratio(rep.indexBytesMean(), fat.indexBytesMean())));
        }
        return out.toString();
    }

    private static String ratio(double a, double b) {
        return b == 0 ? "∞" : String.format(Locale.ROOT, "%.1f×", a / b);
    }

    private static Figures find(List<Figures> all, Layout layout, int nodes) {
        return all.stream().filter(f -> f.layout() == layout && f.config().nodes() == nodes).findFirst()
                .orElseThrow();
    }

    static String locks(List<DirectorySimulation.Concurrency> runs) {
        StringBuilder out = new StringBuilder("concurrent changes under MARK-OPT's locks (messages between nodes per "
                + "change):\n");
        for (DirectorySimulation.Concurrency c : runs) {
            out.append(String.format(Locale.ROOT, "  %4d nodes: %,d changes, %.2f lock messages, %.2f batches "
                    + "(each acknowledged), %.3f retries per change%n", c.nodes(), c.changes(),
                    c.lockMessages() / (double) c.changes(), c.batches() / (double) c.changes(),
                    c.retries() / (double) c.changes()));
        }
        return out.toString();
    }

    static void write(List<Figures> all, List<DirectorySimulation.Concurrency> locks, Path dir) throws IOException {
        List<String> csv = new ArrayList<>();
        csv.add("layout,nodes,leaves,levels,index_pages,messages_per_split,max_split_messages,messages_per_move,"
                + "bytes_per_split,bytes_per_move,index_bytes_mean,index_bytes_max,hops_p50,hops_p99,hops_mean,"
                + "busiest_share,leaves_per_node,fanout,splits,moves,routes,seed");
        for (Figures f : all) {
            DirectorySimulation.Config c = f.config();
            csv.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%.3f,%d,%.3f,%.1f,%.1f,%.1f,%d,%d,%d,%.3f,%.4f,%d,%d,%d,"
                    + "%d,%d,%d", f.layout().label(), c.nodes(), f.leaves(), f.levels(), f.indexPages(),
                    f.messagesPerSplit(), f.maxSplitMessages(), f.messagesPerMove(), f.bytesPerSplit(),
                    f.bytesPerMove(), f.indexBytesMean(), f.indexBytesMax(), f.hopsAt(50), f.hopsAt(99),
                    f.hopsMean(), f.busiestShare(), c.leavesPerNode(), c.fanout(), c.splits(), c.moves(), c.routes(),
                    c.seed()));
        }
        Files.write(dir.resolve(CSV), csv);
        charts(all, dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown(all) + "\nConcurrent splits and moves (up to 32 at once "
                + "per round, distinct ranges, messages delivered in a seeded random order), under MARK-OPT's locks; "
                + "the copy invariant is checked after every round:\n\n```\n" + locks(locks).trim() + "\n```\n");
    }

    private static String markdown(List<Figures> all) {
        DirectorySimulation.Config c = all.get(0).config();
        StringBuilder md = new StringBuilder("# Directory: Fat-Btree, replicated index, single index node\n\n");
        md.append(String.format(Locale.ROOT, "Simulated over in-memory channels (`./autodisk bench directory`): %d "
                + "ranges per node grown by random splits, fanout %d, then %d measured splits and %d moves of "
                + "boundary ranges to their neighbour, %d routed keys from random nodes, seed %d. A message is "
                + "one batch of page copies to one other node; the single index's leaf owner sends one request "
                + "to the index node (node 1) besides.%n%n", c.leavesPerNode(), c.fanout(), c.splits(), c.moves(),
                c.routes(), c.seed()));
        md.append("| layout | nodes | ranges | levels | index pages | msgs/split | max | msgs/move | B/split | "
                + "B/move | index B/node (mean) | max | hops p50 | p99 | mean | busiest node's share of page "
                + "reads |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Figures f : all) {
            md.append("| ").append(String.join(" | ", line(f).trim().split("\\s+"))).append(" |\n");
        }
        md.append("\n```\n").append(ratios(all).trim()).append("\n```\n\n");
        for (String chart : CHARTS) {
            md.append("![").append(chart).append("](").append(chart).append(")\n");
        }
        return md.toString();
    }

    private static void charts(List<Figures> all, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        InsertCharts.save(chart(all, "Directory messages per range split", "messages to other nodes",
                Figures::messagesPerSplit), dir.resolve(CHARTS[0]));
        InsertCharts.save(chart(all, "Directory messages per range move", "messages to other nodes",
                Figures::messagesPerMove), dir.resolve(CHARTS[1]));
        InsertCharts.save(chart(all, "Index bytes held per node (mean)", "bytes", Figures::indexBytesMean),
                dir.resolve(CHARTS[2]));
        InsertCharts.save(chart(all, "Routing hops, p99", "forwards", f -> f.hopsAt(99)), dir.resolve(CHARTS[3]));
    }

    private static XYChart chart(List<Figures> all, String title, String y, ToDoubleFunction<Figures> value) {
        XYChart c = new XYChartBuilder().width(960).height(600).title(title).xAxisTitle("data nodes").yAxisTitle(y)
                .build();
        c.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(all.stream().mapToDouble(value).min()
                .orElse(0) > 0).setLegendPosition(Styler.LegendPosition.OutsideS).setMarkerSize(8);
        for (Layout layout : Layout.values()) {
            List<Figures> rows = all.stream().filter(f -> f.layout() == layout).toList();
            XYSeries s = c.addSeries(layout.label(), rows.stream().mapToDouble(f -> f.config().nodes()).toArray(),
                    rows.stream().mapToDouble(value).toArray());
            s.setLineColor(COLORS[layout.ordinal()]);
            s.setMarkerColor(COLORS[layout.ordinal()]);
        }
        return c;
    }
}
