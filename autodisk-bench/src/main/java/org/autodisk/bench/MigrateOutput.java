package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.autodisk.bench.MigrateExperiments.Row;

/** Writes the migration experiments' results: {@code results.csv} and {@code report.md}. */
public final class MigrateOutput {

    private MigrateOutput() {
    }

    /**
     * Writes the CSV, the PNG charts and the Markdown report.
     *
     * @param rows     the measured windows
     * @param settings what ran
     * @param cluster  the cluster it ran on, for the report
     * @param command  what ran, for the report
     * @param dir      the output directory (created if missing)
     * @return the report
     * @throws IOException if a file cannot be written
     */
    public static String write(List<Row> rows, MigrateExperiments.Settings settings, String cluster, String command,
            Path dir) throws IOException {
        Files.createDirectories(dir);
        StringBuilder report = new StringBuilder(MigrateReport.markdown(rows, settings, cluster, command));
        List<String> charts = MigrateCharts.write(rows, dir);
        if (!charts.isEmpty()) {
            report.append("\nCharts:\n\n");
            charts.forEach(c -> report.append("![").append(c).append("](").append(c).append(")\n\n"));
        }
        Files.writeString(dir.resolve("results.csv"), MigrateReport.csv(rows));
        Files.writeString(dir.resolve("report.md"), report);
        return report.toString();
    }
}
