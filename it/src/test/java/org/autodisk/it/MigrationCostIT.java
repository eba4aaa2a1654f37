package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.bench.MigrateExperiments;
import org.autodisk.bench.MigrateExperiments.Row;
import org.autodisk.bench.MigrateOutput;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The migration cost experiments of {@code autodisk bench migrate} on local node processes (three data nodes, two
 * log nodes, log multiplicity 2) at CI sizes - ranges of 1,000 and 10,000 streams of 1 KB, each moved once
 * autonomously and once host-driven, unthrottled - writing the CSV and report to {@code it/target/migration-cost/}.
 * It checks that every move ended on its target with every stream, that no foreground insert failed, and that the
 * figures are complete and consistent; the figures themselves are reported, not asserted. Tagged {@code full} as
 * well: {@link MigrationCostContainersIT} runs the same experiments and checks on containers in {@code .ci/run}.
 */
@Tag("slow")
@Tag("full")
class MigrationCostIT {

    @TempDir
    Path dir;

    /** The CI sizes: 1,000 and 10,000 streams of 1 KB, one move per mode, unthrottled, three cutovers. */
    static final MigrateExperiments.Settings SETTINGS = new MigrateExperiments.Settings(List.of(1000, 10_000),
            List.of(1024), 1, 0L, 3);

    @Test
    void everyMoveEndsOnItsTargetWithNoFailedForegroundInsertAndTheReportIsWritten() throws Exception {
        List<Row> rows = new ArrayList<>();
        try (LocalCluster cluster = LocalCluster.start(dir, 3, 2, FreePorts.base(5), List.of(),
                MigrateExperiments.CLUSTER_YAML);
                AutoDiskClient client = AutoDiskClient.builder().seeds(cluster.addresses()).build()) {
            new MigrateExperiments(client, SETTINGS, rows::add).run();
        }
        checkAndWrite(rows, SETTINGS, "local processes: 3 data nodes, 2 log nodes, log multiplicity 2",
                "MigrationCostIT (1,000 and 10,000 × 1 KB, one move per mode, unthrottled)",
                Path.of("target", "migration-cost"));
    }

    /**
     * Checks the rows of a run at {@link #SETTINGS} and writes its CSV, report and charts.
     *
     * @param rows        what the experiments measured
     * @param settings    the run's settings
     * @param cluster     the cluster, for the report
     * @param command     how the run is reproduced, for the report
     * @param out         where the files go
     * @throws java.io.IOException if they cannot be written
     */
    static void checkAndWrite(List<Row> rows, MigrateExperiments.Settings settings, String cluster, String command,
            Path out) throws java.io.IOException {
        if (settings.equals(SETTINGS)) {
            assertThat(rows).extracting(r -> r.mode() + "/" + r.streams()).containsExactly("idle/1000",
                    "autonomous/1000", "host/1000", "idle/10000", "autonomous/10000", "host/10000",
                    "cutover-idle/1000", "cutover-idle/1000", "cutover-idle/1000", "cutover/1000", "cutover/1000",
                    "cutover/1000");
        }
        for (Row r : rows) {
            assertThat(r.totalMs()).as(r.mode()).isPositive();
            assertThat(r.bytes()).as(r.mode()).isGreaterThanOrEqualTo(r.streams() * 1024L);
            assertThat(r.moving().errors()).as(r.mode() + ": failed inserts into the moving range").isZero();
            assertThat(r.moving().count()).as(r.mode() + ": inserts into the moving range").isPositive();
            assertThat(r.moving().p50Us()).isLessThanOrEqualTo(r.moving().p99Us());
            if (!r.mode().endsWith("idle")) {
                assertThat(r.to()).as("a move goes somewhere else").isNotEqualTo(r.from());
                assertThat(r.targetMs()).as(r.mode() + ": the target's breakdown").containsKeys("store", "commit",
                        "serve").allSatisfy((part, ms) -> assertThat(ms).as(part).isNotNegative());
                assertThat(r.targetMs().get("store")).as(r.mode() + ": the target wrote the streams").isPositive();
            }
            if (r.mode().equals("cutover")) {
                assertThat(r.targetMs()).as("the target's count of paused writes").containsKey("paused");
            }
            if (r.mode().equals("autonomous")) {
                assertThat(r.targetMs().get("source-wait")).as("the target waited for the source's chunks")
                        .isPositive();
            }
        }
        assertThat(rows).filteredOn(r -> r.mode().equals("cutover")).as("the source handed its ledger over to the "
                + "target at some cutover (LEDGER_HANDOVER), which counted how long writes paused")
                .anySatisfy(r -> assertThat(r.targetMs().get("paused")).isPositive());
        MigrateOutput.write(rows, settings, cluster, command, out);
        String first = String.format(java.util.Locale.ROOT, "%,d", settings.streams().get(0));
        assertThat(Files.readString(out.resolve("report.md"))).contains("| " + first + " × 1024 B | autonomous |")
                .contains("5.22")
                .contains("Cutover pause: a range of 1,000")
                .contains("](a-ms-per-stream.png)").contains("](d-cutover-pause.png)");
        assertThat(out.resolve("a-ms-per-stream.png")).isNotEmptyFile();
        assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(rows.size() + 1);
    }
}
