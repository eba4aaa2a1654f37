package org.autodisk.bench;

import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import org.autodisk.cli.ClusterSizeOptions;
import org.autodisk.cli.LocalCluster;
import org.autodisk.cli.SettingsOption;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.RangeStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench forward}: sequential inserts served by the node the client talks to and forwarded
 * through it to another owner (p50/p99 round trip and per-node queue wait, from per-request traces), then
 * throughput with many requests in flight (one request in 16 traced there, to sample queue wait); with
 * {@code --direct}, the same again with a client that routes each insert straight to its owner.
 */
@Command(name = "forward", footer = "  autodisk bench forward --data-nodes 3 --log-nodes 1 --in-flight 50,256",
        defaultValueProvider = BenchOptions.PortDefault.class,
        description = "Insert latency to the owner vs. forwarded, and throughput in flight.")
final class ForwardBench implements Callable<Integer> {

    @Option(names = "--seeds", description = "Use this running cluster (default: start 3 local data nodes).")
    String seeds;

    @Option(names = "--count", defaultValue = "20000", description = "Measured sequential inserts per scenario.")
    int count;

    @Option(names = "--warmup", defaultValue = "5000", description = "Unmeasured inserts before each scenario.")
    int warmup;

    @Option(names = "--in-flight", split = ",", defaultValue = "64",
            description = "Concurrent requests in the load phase; several values give several rows, e.g. 64,256.")
    List<Integer> inFlight;

    @Option(names = "--direct", description = "Also measure a client with direct routing (straight to the owner), "
            + "in the same run.")
    boolean direct;

    @Option(names = "--load-count", defaultValue = "300000", description = "Measured inserts in the load phase.")
    int loadCount;

    @Option(names = "--load-warmup", defaultValue = "200000",
            description = "Unmeasured inserts in flight before the load phase (JIT warm-up).")
    int loadWarmup;

    @Mixin
    BenchOptions.Port port;

    @Mixin
    BenchOptions.ValueSize value;

    @Mixin
    ClusterSizeOptions size;

    @Mixin
    SettingsOption settings;

    @Override
    public Integer call() throws Exception {
        if (seeds != null) {
            run(seeds.split(",")[0]);
            return 0;
        }
        System.out.println("starting " + size.dataNodes() + " data nodes and " + size.logNodes() + " log nodes "
                + "(multiplicity " + size.multiplicity() + ") on 127.0.0.1:" + port.basePort + " ...");
        try (LocalCluster c = LocalCluster.start(size.layout(Files.createTempDirectory("autodisk-bench"),
                port.basePort, List.of()), List.of(size.multiplicityLayer(), settings.layer())).deleteOnClose()) {
            run(c.addresses().get(0));
        }
        return 0;
    }

    private void run(String entry) throws InterruptedException {
        try (AutoDiskClient client = AutoDiskClient.builder().seeds(entry).build()) {
            ClusterStatus status = client.status();
            String self = client.connectedNode();
            RangeStatus local = status.ranges().stream().filter(r -> r.owner().equals(self)).findFirst().orElseThrow();
            RangeStatus remote = status.ranges().stream().filter(r -> !r.owner().equals(self)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("the cluster has one data node: nothing to forward"));
            byte[] value = new byte[this.value.valueBytes];
            new Random(1).nextBytes(value);
            System.out.println("warming up: " + loadWarmup + " inserts, " + inFlight.get(0) + " in flight ...");
            load(client, status.ranges(), value, loadWarmup, inFlight.get(0), null);
            System.out.println("| scenario | requests | p50 us | p99 us | mean us | entry queue p50/p99 us "
                    + "| owner queue p50/p99 us | inserts/s |");
            System.out.println("|---|---|---|---|---|---|---|---|");
            sequential(client, "to the owner (" + self + ")", new KeysInRange(local), value);
            sequential(client, "forwarded " + self + " -> " + remote.owner(), new KeysInRange(remote), value);
            for (int window : inFlight) {
                load(client, status.ranges(), value, loadCount, window, window + " in flight, keys over all ranges");
            }
            if (direct) {
                runDirect(entry, status, remote, value);
            }
            printLogFigures(client.status());
        }
    }

    /** The same scenarios with a client that routes straight to the owner (its table loaded first). */
    private void runDirect(String entry, ClusterStatus status, RangeStatus remote, byte[] value)
            throws InterruptedException {
        try (AutoDiskClient client = AutoDiskClient.builder().seeds(entry).directRouting(true).build()) {
            KeysInRange keys = new KeysInRange(remote);
            int tries = 0;
            while (client.async().insertTraced(keys.key(tries), value).join().hops().size() > 1 && tries < 1000) {
                tries++;
            }
            load(client, status.ranges(), value, loadWarmup, inFlight.get(0), null);
            sequential(client, "direct to " + remote.owner() + " (client routes)", keys, value);
            for (int window : inFlight) {
                load(client, status.ranges(), value, loadCount, window, window + " in flight, direct routing");
            }
        }
    }

    private void sequential(AutoDiskClient client, String name, KeysInRange keys, byte[] value) {
        InsertWorkload.sequential(client, keys, value, warmup, count).print(name + ", sequential");
    }

    private static void printLogFigures(ClusterStatus status) {
        status.nodes().stream().filter(n -> n.role().equals("log")).forEach(n -> System.out.printf(
                "log node %s: %.0f ledger entries, %.0f journal fsyncs, %.1f entries per fsync%n", n.id(),
                n.metrics().getOrDefault(MetricNames.LEDGER_ENTRIES, 0.0),
                n.metrics().getOrDefault(MetricNames.LEDGER_SYNCS, 0.0),
                n.metrics().getOrDefault(MetricNames.LEDGER_ENTRIES_PER_SYNC, 0.0)));
    }

    private void load(AutoDiskClient client, List<RangeStatus> ranges, byte[] value, int n, int inFlight,
            String name) throws InterruptedException {
        InsertWorkload.Stats s = InsertWorkload.load(client, ranges, value, n, inFlight, name == null ? 7 : 8);
        if (name != null) {
            s.print(name);
        }
    }
}
