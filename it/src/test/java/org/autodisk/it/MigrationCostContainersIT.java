package org.autodisk.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.bench.MigrateExperiments;
import org.autodisk.bench.MigrateExperiments.Row;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.it.containers.AutoDiskImage;
import org.autodisk.it.containers.ClusterTopology;
import org.autodisk.it.containers.ContainerBenchNodes;
import org.autodisk.it.containers.ContainerCluster;
import org.autodisk.it.containers.RequiresDocker;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The migration cost experiments of {@link MigrationCostIT} on a cluster of Docker containers (three data nodes, two
 * log nodes, log multiplicity 2, one container each, the JVM flags of the local processes): the same sizes, checks
 * and report, written to {@code it/target/migration-cost-containers/}. The client runs on the host and reaches d1
 * through its published port; the host-driven move's direct connection to the target goes through the target's
 * published port ({@link AutoDiskClient.Builder#addressTranslator}: the cluster reports {@code d2:7400}).
 *
 * <p>System properties turn it into the run behind a committed report: {@value #STREAMS}{@code =1000,10000,100000}
 * (range sizes), {@value #REPEAT}{@code =N} (moves per mode and size) and {@value #OUT}{@code =DIR} (relative to the
 * repository root).
 */
@RequiresDocker
@Tag("slow")
@Tag("full")
class MigrationCostContainersIT {

    /** System property: the range sizes, comma-separated. */
    static final String STREAMS = "migration.streams";
    /** System property: moves per mode and size. */
    static final String REPEAT = "migration.repeat";
    /** System property: the output directory, relative to the repository root. */
    static final String OUT = "migration.out";

    private static MigrateExperiments.Settings settings() {
        String streams = System.getProperty(STREAMS);
        if (streams == null || streams.isBlank()) {
            return MigrationCostIT.SETTINGS;
        }
        return new MigrateExperiments.Settings(java.util.Arrays.stream(streams.split(",")).map(String::trim)
                .map(Integer::valueOf).toList(), List.of(1024), Integer.getInteger(REPEAT, 1), 0L, 20);
    }

    private static Path out() {
        String dir = System.getProperty(OUT);
        return dir == null || dir.isBlank() ? Path.of("target", "migration-cost-containers")
                : AutoDiskImage.repositoryRoot().resolve(dir);
    }

    @Test
    void everyMoveEndsOnItsTargetWithNoFailedForegroundInsertAndTheReportIsWritten() throws Exception {
        List<Row> rows = new ArrayList<>();
        ClusterTopology topology = ClusterTopology.builder("migration-cost").dataNodes(3).logNodes(2).multiplicity(2)
                .configYaml(MigrateExperiments.CLUSTER_YAML).env("JAVA_OPTS", ContainerBenchNodes.JAVA_OPTS).build();
        try (ContainerCluster cluster = topology.start(AutoDiskImage.name());
                AutoDiskClient client = AutoDiskClient.builder().seeds(cluster.node("d1").clientAddress())
                        .addressTranslator(reported -> published(cluster, reported)).build()) {
            new MigrateExperiments(client, settings(), rows::add).run();
        }
        String command = System.getProperty(STREAMS) == null
                ? "MigrationCostContainersIT (1,000 and 10,000 × 1 KB, one move per mode, unthrottled)"
                : "MigrationCostContainersIT -D" + STREAMS + "=" + System.getProperty(STREAMS) + " -D" + REPEAT + "="
                        + Integer.getInteger(REPEAT, 1) + " (unthrottled, 20 cutovers)";
        MigrationCostIT.checkAndWrite(rows, settings(), "Docker containers (Testcontainers): 3 data nodes, 2 log "
                + "nodes, log multiplicity 2, one container per node on one bridge network, the client on the host",
                command, out());
    }

    /** {@code d2:7400} as the cluster reports it: the container's published port on the host. */
    private static String published(ContainerCluster cluster, String reported) {
        String id = reported.substring(0, Math.max(0, reported.lastIndexOf(':')));
        if (!cluster.topology().nodeIds().contains(id)) {
            return reported;
        }
        return cluster.node(id).clientAddress();
    }
}
