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
     * Writes the CSV and the Markdown report.
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
        String report = MigrateReport.markdown(rows, settings, cluster, command);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results.csv"), MigrateReport.csv(rows));
        Files.writeString(dir.resolve("report.md"), report);
        return report;
    }
}
