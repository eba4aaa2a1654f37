package org.autodisk.it.containers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.autodisk.bench.faults.FaultRun;
import org.autodisk.bench.faults.FaultSummary;
import org.autodisk.it.FreePorts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fault-injection suite on a container cluster (three data nodes, two log nodes, multiplicity 2): four workers
 * insert, delete and read 40 keys while the nemesis, one fault at a time and each kind at least once, kills a data
 * node, a log node and the metadata leader ({@code docker kill}, then {@code docker start} on the same data), freezes
 * a data node ({@code docker pause}), cuts a data node off the network ({@code docker network disconnect}), fills a
 * log node's and a data node's disk and slows a log node's fsyncs (through their fault hooks); the history must show
 * no anomaly and the cluster must settle. The seed is printed.
 *
 * <p>{@code -Dfaults.seed=N} replays a run; {@code -Dfaults.seconds=1800} runs the long schedule,
 * {@code -Dfaults.calm-ms} and {@code -Dfaults.hold-ms} set about how long between faults and how long each lasts (2000
 * and 3000 by default); {@code -Dfaults.report=DIR} writes the report there (default
 * {@code target/faults-containers-report}).
 */
@RequiresDocker
@Tag("slow")
@Timeout(value = 40, unit = TimeUnit.MINUTES)
class ContainerFaultsIT {

    @Test
    void killsPausesAndPartitionsOfContainersLoseNoAcknowledgedWriteAndNoReadGoesBack() throws Exception {
        String given = System.getProperty("faults.seed");
        long seed = given != null ? Long.parseLong(given) : ThreadLocalRandom.current().nextLong(1, 1L << 40);
        long seconds = Long.getLong("faults.seconds", 40);
        Duration calm = Duration.ofMillis(Long.getLong("faults.calm-ms", 2000));
        Duration hold = Duration.ofMillis(Long.getLong("faults.hold-ms", 3000));
        System.out.println("[faults] containers, seed " + seed + " (replay: -Dfaults.seed=" + seed + "), " + seconds
                + " s of faults");
        ClusterTopology topology = ClusterTopology.builder("faults").dataNodes(3).logNodes(2).multiplicity(2)
                .env("AUTODISK_BALANCE_CHECK_MS", "3000")
                .env("AUTODISK_FAULT_HOOKS_DIR", FaultRun.HOOKS_DIR).hostPorts(FreePorts.base(5)).build();
        try (ContainerCluster cluster = topology.start(AutoDiskImage.name())) {
            FaultSummary summary = FaultRun.run(new ContainerFaultTarget(cluster), new FaultRun.Schedule(4, 40,
                    Duration.ofSeconds(seconds), seed, FaultRun.containerKinds(), calm, hold));
            System.out.println(summary.markdown());
            summary.write(Path.of(System.getProperty("faults.report", "target/faults-containers-report")),
                    "ContainerFaultsIT (`-Dfaults.seconds=" + seconds + " -Dfaults.calm-ms=" + calm.toMillis()
                            + " -Dfaults.hold-ms=" + hold.toMillis() + " -Dfaults.seed=" + seed + "`): " + topology
                            + ", one container each; 4 workers, 40 keys; faults about every " + calm.toMillis()
                            + " ms, held about " + hold.toMillis() + " ms.");
            assertThat(summary.faults()).as("seed %d", seed).extracting(f -> f.kind())
                    .containsAll(FaultRun.containerKinds());
            assertThat(summary.anomalies()).as("anomalies, seed %d", seed).isEmpty();
            assertThat(summary.unsettled()).as("the cluster settles after the faults heal, seed %d", seed).isEmpty();
            assertThat(summary.counts()).as("seed %d", seed).containsKeys("write ok", "read ok", "delete ok");
        }
    }
}
