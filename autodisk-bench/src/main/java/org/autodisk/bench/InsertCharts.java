package org.autodisk.bench;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.bench.InsertResults.SizeRow;
import org.autodisk.bench.InsertResults.StreamsRow;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG charts of (b), (c) and (d), paper beside ours, rendered headless with XChart. */
final class InsertCharts {

    static final String STREAMS = "b-time-per-insert.png";
    static final String SIZES = "c-throughput.png";
    static final String MULTIPLICITY = "d-multiplicity.png";

    private static final Color PAPER_M1 = new Color(0x55, 0x55, 0x55);
    private static final Color PAPER_M2 = new Color(0x99, 0x66, 0x33);
    private static final Color OURS_M1 = new Color(0x1f, 0x5f, 0xbf);
    private static final Color OURS_M2 = new Color(0xc0, 0x30, 0x30);
    private static final int WIDTH = 960;
    private static final int HEIGHT = 600;

    private InsertCharts() {
    }

    /**
     * Renders the charts into {@code dir}.
     *
     * @return the file names written
     */
    static List<String> write(InsertResults r, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> files = new ArrayList<>();
        if (!r.streams().isEmpty()) {
            save(streams(r), dir.resolve(STREAMS));
            files.add(STREAMS);
        }
        if (!r.sizes().isEmpty()) {
            save(sizes(r), dir.resolve(SIZES));
            files.add(SIZES);
        }
        if (r.sizes().stream().anyMatch(x -> x.multiplicity() == 2)) {
            save(multiplicity(r), dir.resolve(MULTIPLICITY));
            files.add(MULTIPLICITY);
        }
        return files;
    }

    private static XYChart streams(InsertResults r) {
        XYChart c = xy("(b) Mean time per insert by number of streams (Tables 6, 7)", "streams inserted (N)",
                "ms per insert (total time / N)");
        paper(c, "paper m=1 (Table 6)", PaperFigures.STREAMS, PaperFigures.T6_MEAN_MS, PAPER_M1);
        paper(c, "paper m=2 (Table 7)", PaperFigures.STREAMS, PaperFigures.T7_MEAN_MS, PAPER_M2);
        for (int m = 1; m <= 2; m++) {
            for (String mode : List.of("sequential", "in-flight-" + r.settings().inFlight())) {
                int mm = m;
                List<StreamsRow> rows = r.streams().stream().filter(x -> x.multiplicity() == mm
                        && x.mode().equals(mode)).toList();
                if (!rows.isEmpty()) {
                    boolean seq = mode.equals("sequential");
                    XYSeries series = c.addSeries("ours m=" + m + ", "
                            + (seq ? mode : r.settings().inFlight() + " in flight"),
                            rows.stream().mapToDouble(StreamsRow::streams).toArray(),
                            rows.stream().mapToDouble(StreamsRow::meanPerInsertMs).toArray());
                    color(series, (m == 1 ? OURS_M1 : OURS_M2), seq ? 1 : 0.55);
                }
            }
        }
        return c;
    }

    private static XYChart sizes(InsertResults r) {
        XYChart c = xy("(c) Throughput by stream size (Tables 8, 9)", "stream size (KB)", "KB/s");
        double[] kb = new double[PaperFigures.SIZES_KB.length];
        for (int i = 0; i < kb.length; i++) {
            kb[i] = PaperFigures.SIZES_KB[i];
        }
        paper(c, "paper m=1 (Table 8)", kb, PaperFigures.T8_KB_PER_S, PAPER_M1);
        paper(c, "paper m=2 (Table 9)", kb, PaperFigures.T9_KB_PER_S, PAPER_M2);
        for (int m = 1; m <= 2; m++) {
            int mm = m;
            List<SizeRow> rows = r.sizes().stream().filter(x -> x.multiplicity() == mm).toList();
            if (!rows.isEmpty()) {
                color(c.addSeries("ours m=" + m + ", " + r.settings().inFlight() + " in flight",
                        rows.stream().mapToDouble(x -> x.sizeBytes() / 1024.0).toArray(),
                        rows.stream().mapToDouble(SizeRow::kbPerSecond).toArray()), m == 1 ? OURS_M1 : OURS_M2, 1);
            }
        }
        return c;
    }

    private static CategoryChart multiplicity(InsertResults r) {
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("(d) Throughput with multiplicity 2 relative to multiplicity 1 (Tables 9 / 8)")
                .xAxisTitle("stream size").yAxisTitle("KB/s at m=2 / KB/s at m=1").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS)
                .setSeriesColors(new Color[] {PAPER_M1, OURS_M1});
        List<String> sizes = new ArrayList<>();
        List<Double> ours = new ArrayList<>();
        List<Double> paper = new ArrayList<>();
        for (int size : r.settings().sizesBytes()) {
            SizeRow one = InsertReport.sizeRow(r, 1, size);
            SizeRow two = InsertReport.sizeRow(r, 2, size);
            if (one != null && two != null) {
                sizes.add(InsertReport.size(size));
                ours.add(two.kbPerSecond() / one.kbPerSecond());
                Double p1 = PaperFigures.kbPerSecond(1, size);
                Double p2 = PaperFigures.kbPerSecond(2, size);
                paper.add(p1 == null || p2 == null ? null : p2 / p1);
            }
        }
        c.addSeries("paper", sizes, paper);
        c.addSeries("ours", sizes, ours);
        return c;
    }

    private static XYChart xy(String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y)
                .build();
        c.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true)
                .setXAxisDecimalPattern("#,##0.###").setYAxisDecimalPattern("#,##0.###")
                .setLegendPosition(Styler.LegendPosition.OutsideS).setMarkerSize(7);
        return c;
    }

    private static void paper(XYChart c, String name, int[] x, double[] y, Color color) {
        double[] xs = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            xs[i] = x[i];
        }
        paper(c, name, xs, y, color);
    }

    private static void paper(XYChart c, String name, double[] x, double[] y, Color color) {
        XYSeries s = c.addSeries(name, x, y);
        s.setLineStyle(SeriesLines.DASH_DASH);
        s.setMarker(SeriesMarkers.SQUARE);
        color(s, color, 1);
    }

    /** Colours a series; {@code strength} below 1 lightens it (the in-flight variant of a sequential series). */
    private static void color(XYSeries s, Color base, double strength) {
        Color c = new Color(mix(base.getRed(), strength), mix(base.getGreen(), strength), mix(base.getBlue(),
                strength));
        s.setLineColor(c);
        s.setMarkerColor(c);
    }

    private static int mix(int channel, double strength) {
        return (int) Math.round(channel * strength + 255 * (1 - strength));
    }

    /** Writes a chart as a PNG file (the migration charts use it too). */
    static void save(Chart<?, ?> chart, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
