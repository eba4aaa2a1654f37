package org.autodisk.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import org.autodisk.bench.faults.FaultKind;
import org.autodisk.bench.faults.FaultRun;
import org.autodisk.bench.faults.FaultSummary;
import org.autodisk.cli.SettingsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench faults}: the fault-injection suite for as long as asked (docs/failures.md): client workers
 * read, insert and delete single keys of a local cluster while a seeded nemesis kills, pauses and restarts its nodes;
 * the recorded history is checked (no acknowledged write lost, no value never written read, no read going back in
 * time) and the cluster must settle once the faults heal. Prints the seed (replay with {@code --seed}) and a summary;
 * exits 1 on any anomaly.
 */
@Command(name = "faults", footer = "  autodisk bench faults --minutes 30 --report docs/results/faults-2026-11-26",
        description = "Fault-injection suite: kills, pauses and restarts nodes under load and checks the history.")
final class FaultsBench implements Callable<Integer> {

    @Option(names = "--minutes", defaultValue = "5", description = "How long faults are injected (default: "
            + "${DEFAULT-VALUE}).")
    double minutes;

    @Option(names = "--seed", description = "The run's seed (default: chosen at random, and printed).")
    Long seed;

    @Option(names = "--faults", split = ",",
            defaultValue = "kill-data,kill-log,kill-leader,pause-data,partition-data,partition-link,partition-oneway,"
                    + "disk-full-log,disk-full-data,slow-fsync-log",
            description = "Faults to inject, one at a time (default: ${DEFAULT-VALUE}); the partitions go through a "
                    + "proxy in front of every node, which needs Linux; fs-full-data and fs-full-log fill a node's "
                    + "file system for real (a tmpfs per node: root only).")
    List<String> faults;

    @Option(names = "--data-nodes", defaultValue = "3", description = "Data nodes (default: ${DEFAULT-VALUE}).")
    int dataNodes;

    @Option(names = "--log-nodes", defaultValue = "2", description = "Log nodes (default: ${DEFAULT-VALUE}).")
    int logNodes;

    @Option(names = "--multiplicity", defaultValue = "2", description = "Log nodes per entry (default: "
            + "${DEFAULT-VALUE}).")
    int multiplicity;

    @Option(names = "--workers", defaultValue = "4", description = "Client workers (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--keys", defaultValue = "40", description = "Keys the workers share (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--calm-ms", defaultValue = "4000", description = "About how long between faults (default: "
            + "${DEFAULT-VALUE}).")
    long calmMs;

    @Option(names = "--hold-ms", defaultValue = "5000", description = "About how long a fault lasts (default: "
            + "${DEFAULT-VALUE}).")
    long holdMs;

    @Option(names = "--base-port", defaultValue = "7900", description = "First port of the cluster (default: "
            + "${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--directory", defaultValue = "range", description = "The cluster's directory: range or "
            + "fat-btree (twelve ranges under index pages of fanout 3) (default: ${DEFAULT-VALUE}).")
    private String directory;

    @Mixin
    SettingsOption settings;

    @Option(names = "--report", description = "Write report.md and faults.csv into this directory.")
    Path report;

    @Override
    public Integer call() throws Exception {
        List<FaultKind> kinds;
        try {
            kinds = faults.stream().map(FaultKind::of).toList();
            kinds.stream().filter(k -> k.ofLogNode() && logNodes == 0).findFirst().ifPresent(k -> {
                throw new IllegalArgumentException(k.label() + " needs --log-nodes >= 1");
            });
        } catch (IllegalArgumentException e) {
            System.err.println("faults: " + e.getMessage());
            return 2;
        }
        if (!"range".equals(directory) && !"fat-btree".equals(directory)) {
            System.err.println("faults: --directory " + directory + " is unknown (expected range or fat-btree)");
            return 2;
        }
        if (dataNodes < 2 || keys < 1 || workers < 1 || minutes <= 0) {
            System.err.println("faults: needs --data-nodes >= 2 (a failover needs a backup), --keys, --workers >= 1 "
                    + "and --minutes > 0");
            return 2;
        }
        long s = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, 1L << 40);
        System.out.println("faults: seed " + s + " (replay with --seed " + s + "), " + minutes + " min of "
                + String.join(", ", faults) + " on " + dataNodes + " data and " + logNodes + " log nodes, directory "
                + directory);
        Path dir = Files.createTempDirectory("autodisk-faults");
        FaultSummary summary;
        try {
            summary = FaultRun.run(new FaultRun.Settings(dir, basePort, dataNodes, logNodes, multiplicity,
                    workers, keys, Duration.ofMillis((long) (minutes * 60_000)), s, kinds, Duration.ofMillis(calmMs),
                    Duration.ofMillis(holdMs), directory, settings.layer().values()));
        } catch (IllegalArgumentException e) {
            System.err.println("faults: " + e.getMessage());
            return 2;
        }
        System.out.println(summary.markdown());
        if (report != null) {
            summary.write(report);
            System.out.println("faults: report written to " + report);
        }
        System.out.println("faults: node logs and data in " + dir + "; " + (summary.passed() ? "passed"
                : "FAILED: replay with --seed " + s));
        return summary.passed() ? 0 : 1;
    }
}
