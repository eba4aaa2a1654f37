package org.autodisk.bench;

import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import org.autodisk.cli.ClusterSizeOptions;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MemberStatus;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench splits}: how long a split takes to commit through the metadata (Raft), asked of a voter and
 * of a listener (a log node), how long the first write into the new right half takes right after it (sent to the
 * first data node; the halves must serve first: with log nodes, each half writes a ledger of its own), and how far
 * behind the proposal each replica applies the committed changes.
 */
@Command(name = "splits", footer = "  autodisk bench splits --data-nodes 3",
        defaultValueProvider = BenchOptions.PortDefault.class,
        description = "Time to commit a split through the metadata, and every replica's apply lag.")
final class SplitBench implements Callable<Integer> {

    @Option(names = "--seeds", description = "Use this running cluster (default: start a local one).")
    String seeds;

    @Option(names = "--count", defaultValue = "300", description = "Measured splits per entry node.")
    int count;

    @Option(names = "--warmup", defaultValue = "50", description = "Unmeasured splits first.")
    int warmup;

    @Option(names = "--spacing-ms", defaultValue = "0", description = "Pause between a write after a split and the "
            + "next split (0: back to back, so a split may wait for the metadata commits the one before left).")
    long spacingMs;

    @Mixin
    BenchOptions.Port port;

    @Mixin
    ClusterSizeOptions size;

    @Override
    public Integer call() throws Exception {
        if (seeds != null) {
            run(List.of(seeds.split(",")));
            return 0;
        }
        System.out.println("starting " + size.dataNodes() + " data nodes and " + size.logNodes() + " log nodes on "
                + "127.0.0.1:" + port.basePort + " ...");
        try (LocalCluster c = LocalCluster.start(size.layout(Files.createTempDirectory("autodisk-bench-splits"),
                port.basePort, List.of()), List.of(size.multiplicityLayer())).deleteOnClose()) {
            run(c.addresses());
        }
        return 0;
    }

    private void run(List<String> addresses) throws InterruptedException {
        int[] next = {0};
        System.out.println("| split asked of | metadata role | splits | p50 ms | p99 ms | max ms "
                + "| write after p50 ms | write after p99 ms |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (String address : addresses) {
            try (AutoDiskClient client = AutoDiskClient.builder().seeds(address).build();
                    AutoDiskClient writer = AutoDiskClient.builder().seeds(addresses.get(0)).build()) {
                String self = client.connectedNode();
                String role = client.admin().members().members().stream().filter(m -> m.id().equals(self))
                        .map(MemberStatus::metadataRole).findFirst().orElse("?");
                if (!role.equals("leader") && !role.equals("listener") && !role.equals("follower")) {
                    continue;
                }
                Histogram h = new Histogram(3);
                Histogram after = new Histogram(3);
                for (int i = 0; i < warmup + count; i++) {
                    String at = String.format("split-%s-%07d", self, next[0]++);
                    long t0 = System.nanoTime();
                    client.admin().split(at);
                    long t1 = System.nanoTime();
                    writer.insert(Keys.utf8(at + "/w"), Keys.utf8("written right after the split"));
                    if (i >= warmup) {
                        h.recordValue(t1 - t0);
                        after.recordValue(System.nanoTime() - t1);
                    }
                    if (spacingMs > 0) {
                        Thread.sleep(spacingMs);
                    }
                }
                System.out.printf("| %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f |%n", self, role,
                        h.getTotalCount(), h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6,
                        h.getMaxValue() / 1e6, after.getValueAtPercentile(50) / 1e6,
                        after.getValueAtPercentile(99) / 1e6);
            }
        }
        printApplyLag(addresses.get(0));
    }

    private static void printApplyLag(String address) {
        try (AutoDiskClient client = AutoDiskClient.builder().seeds(address).build()) {
            System.out.println();
            System.out.println("| replica | metadata role | apply lag p50 ms | apply lag p99 ms |");
            System.out.println("|---|---|---|---|");
            for (NodeStatus n : client.status().nodes()) {
                System.out.printf("| %s | %s | %.2f | %.2f |%n", n.id(), n.metadata().getOrDefault("role", "?"),
                        n.metrics().getOrDefault(MetricNames.p50(MetricNames.METADATA_APPLY_LAG), -1.0) / 1000,
                        n.metrics().getOrDefault(MetricNames.p99(MetricNames.METADATA_APPLY_LAG), -1.0) / 1000);
            }
        }
    }
}
