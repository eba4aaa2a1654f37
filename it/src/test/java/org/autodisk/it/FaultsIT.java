package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.autodisk.bench.faults.FaultRun;
import org.autodisk.bench.faults.FaultSummary;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault-injection suite's short schedule (45 s of faults) on local processes (three data nodes, two log nodes,
 * multiplicity 2): four workers insert, delete and read 40 keys while the nemesis injects every kind of fault at least
 * once, one at a time (kills, pauses, full disks, a slow fsync, and partitions of a node, a pair or one direction
 * through the partition proxy); the history must show no anomaly and the cluster must settle (every member up, every
 * range serving with a backup). The seed is printed; {@code -Dfaults.seed=N} replays a run,
 * {@code ./autodisk bench faults --minutes N} runs a long one.
 * Tagged {@code full}: CI runs the same faults on containers ({@code ContainerFaultsIT}), all but the partitions of one
 * link, which only the local processes' partition proxy can cut; {@code -Dsurefire.excludedGroups=} runs this one too.
 */
@Tag("full")
class FaultsIT {

    @TempDir
    Path dir;

    @Test
    void killsAndPausesUnderLoadLoseNoAcknowledgedWriteAndNoReadGoesBack() throws Exception {
        String given = System.getProperty("faults.seed");
        long seed = given != null ? Long.parseLong(given) : ThreadLocalRandom.current().nextLong(1, 1L << 40);
        System.out.println("[faults] seed " + seed + " (replay: -Dfaults.seed=" + seed + ")");
        FaultSummary summary = FaultRun.run(new FaultRun.Settings(dir, FreePorts.base(5 + 100), 3, 2, 2, 4, 40,
                Duration.ofSeconds(45), seed, FaultRun.localKinds(), Duration.ofSeconds(2), Duration.ofSeconds(3),
                "range", java.util.Map.of()));
        System.out.println(summary.markdown());
        summary.write(Path.of("target", "faults-report"));
        assertThat(summary.faults()).as("seed %d", seed).extracting(f -> f.kind())
                .containsAll(FaultRun.localKinds());
        assertThat(summary.anomalies()).as("anomalies, seed %d", seed).isEmpty();
        assertThat(summary.unsettled()).as("the cluster settles after the faults heal, seed %d", seed).isEmpty();
        assertThat(summary.counts()).as("seed %d", seed).containsKeys("write ok", "read ok", "delete ok");
    }
}
