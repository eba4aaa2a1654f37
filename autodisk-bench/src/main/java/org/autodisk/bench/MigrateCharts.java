package org.autodisk.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.autodisk.bench.MigrateExperiments.Row;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG charts of the migration experiments, the paper's estimates beside ours, rendered headless with XChart. */
final class MigrateCharts {

    static final String PER_STREAM = "a-ms-per-stream.png";
    static final String SIZES = "b-mb-per-second.png";
    static final String FOREGROUND = "c-foreground-p99.png";
    static final String CUTOVER = "d-cutover-pause.png";

    private static final Color PAPER = new Color(0x77, 0x77, 0x77);
    private static final Color AUTONOMOUS = new Color(0x1f, 0x5f, 0xbf);
    private static final Color HOST = new Color(0xc0, 0x30, 0x30);
    private static final Color IDLE = new Color(0x55, 0x99, 0x55);
    private static final int WIDTH = 960;
    private static final int HEIGHT = 600;

    private MigrateCharts() {
    }

    /**
     * Renders the charts the rows allow into {@code dir}.
     *
     * @return the file names written
     */
    static List<String> write(List<Row> rows, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> files = new ArrayList<>();
        if (!mode(rows, "autonomous").isEmpty()) {
            InsertCharts.save(perStream(rows), dir.resolve(PER_STREAM));
            InsertCharts.save(foreground(rows), dir.resolve(FOREGROUND));
            files.add(PER_STREAM);
            files.add(FOREGROUND);
        }
        if (mode(rows, "autonomous").stream().map(Row::valueBytes).distinct().count() > 1) {
            InsertCharts.save(sizes(rows), dir.resolve(SIZES));
            files.add(SIZES);
        }
        if (!mode(rows, "cutover").isEmpty()) {
            InsertCharts.save(cutovers(mode(rows, "cutover")), dir.resolve(CUTOVER));
            files.add(CUTOVER);
        }
        return files;
    }

    private static XYChart perStream(List<Row> rows) {
        XYChart c = xy("Cost per stream moved, to the cutover (seed 004, Table 11: estimated)", "streams in the range",
                "ms per stream");
        int size = rows.get(0).valueBytes();
        double[] xs = medians(mode(rows, "autonomous"), size, r -> r.streams()).keySet().stream()
                .mapToDouble(Integer::doubleValue).toArray();
        paper(c, "paper, autonomous (5.22 ms)", xs, MigrateReport.PAPER_AUTONOMOUS_MS, AUTONOMOUS);
        paper(c, "paper, host-driven (12.1 ms)", xs, MigrateReport.PAPER_HOST_MS, HOST);
        series(c, "ours, autonomous", medians(mode(rows, "autonomous"), size, Row::msPerStream), AUTONOMOUS);
        series(c, "ours, host-driven", medians(mode(rows, "host"), size, Row::msPerStream), HOST);
        return c;
    }

    private static XYChart sizes(List<Row> rows) {
        XYChart c = xy("Copy rate by stream size, to the cutover", "stream size (KB)", "MB/s");
        for (String m : List.of("autonomous", "host")) {
            TreeMap<Integer, List<Row>> bySize = new TreeMap<>();
            mode(rows, m).forEach(r -> bySize.computeIfAbsent(r.valueBytes(), k -> new ArrayList<>()).add(r));
            double[] x = bySize.keySet().stream().mapToDouble(b -> b / 1024.0).toArray();
            double[] y = bySize.values().stream().mapToDouble(rs -> MigrateReport.median(rs, r -> r.bytes()
                    / (r.cutoverMs() / 1e3) / 1e6)).toArray();
            color(c.addSeries("ours, " + m, x, y), m.equals("host") ? HOST : AUTONOMOUS);
        }
        return c;
    }

    private static CategoryChart foreground(List<Row> rows) {
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Foreground inserts into the moving range: p99 without and during a move (median over moves)")
                .xAxisTitle("streams × value").yAxisTitle("p99 ms").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS)
                .setSeriesColors(new Color[] {IDLE, AUTONOMOUS, HOST});
        Map<String, List<Row>> byExperiment = new LinkedHashMap<>();
        rows.stream().filter(r -> !r.mode().startsWith("cutover")).forEach(r -> byExperiment.computeIfAbsent(
                String.format(Locale.ROOT, "%,d × %d B", r.streams(), r.valueBytes()), k -> new ArrayList<>())
                .add(r));
        List<String> names = List.copyOf(byExperiment.keySet());
        for (String m : List.of("idle", "autonomous", "host")) {
            List<Double> p99 = byExperiment.values().stream().map(rs -> mode(rs, m).isEmpty() ? null
                    : MigrateReport.median(mode(rs, m), r -> r.moving().p99Us()) / 1e3).toList();
            c.addSeries(m.equals("idle") ? "no migration" : m, names, p99);
        }
        return c;
    }

    private static XYChart cutovers(List<Row> moves) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title("Cutover pause per move: writes paused "
                + "(source's stop to target serving), and the longest insert wait").xAxisTitle("move")
                .yAxisTitle("ms").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setMarkerSize(6);
        double[] x = moves.stream().mapToDouble(Row::run).toArray();
        color(c.addSeries("writes paused", x, moves.stream().mapToDouble(r -> r.targetMs()
                .getOrDefault(MigrateReport.PAUSED, 0.0)).toArray()), AUTONOMOUS);
        color(c.addSeries("longest insert wait of the move", x, moves.stream().mapToDouble(r -> r.moving().maxUs()
                / 1e3).toArray()), IDLE);
        XYSeries target = c.addSeries("target p99 (50 ms)", new double[] {x[0], x[x.length - 1]},
                new double[] {50, 50});
        target.setLineStyle(SeriesLines.DASH_DASH);
        target.setMarker(SeriesMarkers.NONE);
        target.setLineColor(HOST);
        return c;
    }

    private static TreeMap<Integer, Double> medians(List<Row> rows, int size, ToDoubleFunction<Row> f) {
        TreeMap<Integer, List<Row>> byStreams = new TreeMap<>();
        rows.stream().filter(r -> r.valueBytes() == size).forEach(r -> byStreams.computeIfAbsent(r.streams(),
                k -> new ArrayList<>()).add(r));
        TreeMap<Integer, Double> out = new TreeMap<>();
        byStreams.forEach((n, rs) -> out.put(n, MigrateReport.median(rs, f)));
        return out;
    }

    private static void series(XYChart c, String name, TreeMap<Integer, Double> points, Color color) {
        if (!points.isEmpty()) {
            color(c.addSeries(name, points.keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                    points.values().stream().mapToDouble(Double::doubleValue).toArray()), color);
        }
    }

    private static void paper(XYChart c, String name, double[] xs, double ms, Color color) {
        if (xs.length == 0) {
            return;
        }
        XYSeries s = c.addSeries(name, new double[] {xs[0], xs[xs.length - 1]}, new double[] {ms, ms});
        s.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 6f},
                0f));
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(new Color((color.getRed() + PAPER.getRed()) / 2, (color.getGreen() + PAPER.getGreen()) / 2,
                (color.getBlue() + PAPER.getBlue()) / 2));
    }

    private static XYChart xy(String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y)
                .build();
        c.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true)
                .setXAxisDecimalPattern("#,##0.###").setYAxisDecimalPattern("#,##0.####")
                .setLegendPosition(Styler.LegendPosition.OutsideS).setMarkerSize(7);
        return c;
    }

    private static void color(XYSeries s, Color c) {
        s.setLineColor(c);
        s.setMarkerColor(c);
    }

    private static List<Row> mode(List<Row> rows, String mode) {
        return rows.stream().filter(r -> r.mode().equals(mode)).toList();
    }
}
