package org.autodisk.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import org.autodisk.cli.ClusterSizeOptions;
import org.autodisk.cli.LocalCluster;
import org.autodisk.cli.SettingsOption;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.RangeStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench compare}: the same 1 KB inserts against a freshly started local AutoDisk cluster and a local
 * Redis Cluster (as many masters as data nodes, append-only file with {@code appendfsync always}), in one run and in
 * alternating rounds: one at a time, then with windows of requests in flight; prints medians over the rounds and the
 * ratios, and can write them as a report.
 */
@Command(name = "compare",
        footer = "  autodisk bench compare --data-nodes 3 --log-nodes 1 --in-flight 50,256 --rounds 3",
        defaultValueProvider = BenchOptions.PortDefault.class,
        description = "The same inserts against AutoDisk and a local Redis Cluster (AOF, fsync always), with ratios.")
final class CompareBench implements Callable<Integer> {

    @Option(names = "--rounds", defaultValue = "1", description = "Rounds, alternating the two systems; medians are "
            + "printed (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--count", defaultValue = "10000", description = "Measured sequential inserts per round.")
    int count;

    @Option(names = "--warmup", defaultValue = "2000", description = "Unmeasured sequential inserts before them.")
    int warmup;

    @Option(names = "--in-flight", split = ",", defaultValue = "50,256",
            description = "Requests in flight in the load phase (Redis: as many connections); several give "
                    + "several rows.")
    List<Integer> inFlight;

    @Option(names = "--load-count", defaultValue = "200000", description = "Measured inserts per load row and round.")
    int loadCount;

    @Option(names = "--load-warmup", defaultValue = "200000",
            description = "Unmeasured AutoDisk inserts in flight before each round (JIT warm-up).")
    int loadWarmup;

    @Option(names = "--redis-bin", description = "Folder of redis-server, redis-cli and redis-benchmark "
            + "(default: found on PATH; Debian's package redis-server).")
    Path redisBin;

    @Option(names = "--redis-port", defaultValue = "7700",
            description = "First Redis port; the others follow, and each uses its port + 10000 for the cluster bus.")
    int redisPort;

    @Option(names = "--report", description = "Also write the table as a Markdown report to this file.")
    Path report;

    @Mixin
    BenchOptions.Port port;

    @Mixin
    BenchOptions.ValueSize value;

    @Mixin
    ClusterSizeOptions size;

    @Mixin
    SettingsOption settings;

    private final Map<String, List<double[]>> autodisk = new LinkedHashMap<>();
    private final Map<String, List<double[]>> redis = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        Path bin = redisBin != null ? redisBin : onPath("redis-server").orElse(null);
        if (bin == null || !Files.isExecutable(bin.resolve("redis-server"))
                || !Files.isExecutable(bin.resolve("redis-benchmark"))) {
            System.err.println("redis-server and redis-benchmark not found " + (redisBin != null ? "in " + redisBin
                    : "on PATH") + ": install Debian's redis-server package or pass --redis-bin DIR");
            return 2;
        }
        String version = "";
        for (int round = 1; round <= rounds; round++) {
            System.out.println("round " + round + " of " + rounds + ": AutoDisk");
            runAutoDisk();
            System.out.println("round " + round + " of " + rounds + ": Redis Cluster");
            version = runRedis(bin);
        }
        String table = CompareTable.markdown(autodisk, redis, inFlight);
        System.out.println(table);
        if (report != null) {
            Files.writeString(report, reportText(version, table));
            System.out.println("report written to " + report);
        }
        return 0;
    }

    private void runAutoDisk() throws Exception {
        try (LocalCluster c = LocalCluster.start(size.layout(Files.createTempDirectory("autodisk-compare"),
                port.basePort, List.of()), List.of(size.multiplicityLayer(), settings.layer())).deleteOnClose();
                AutoDiskClient client = AutoDiskClient.builder().seeds(c.addresses().get(0)).build();
                AutoDiskClient direct = AutoDiskClient.builder().seeds(c.addresses().get(0)).directRouting(true)
                        .build()) {
            ClusterStatus status = client.status();
            String self = client.connectedNode();
            RangeStatus local = status.ranges().stream().filter(r -> r.owner().equals(self)).findFirst()
                    .orElseThrow();
            byte[] v = value();
            InsertWorkload.load(client, status.ranges(), v, loadWarmup, inFlight.get(0), 7);
            record(autodisk, CompareTable.SEQUENTIAL, InsertWorkload.sequential(client, new KeysInRange(local), v,
                    warmup, count));
            for (int w : inFlight) {
                record(autodisk, CompareTable.anyNode(w), InsertWorkload.load(client, status.ranges(), v, loadCount, w,
                        8));
            }
            InsertWorkload.load(direct, status.ranges(), v, loadWarmup / 4, inFlight.get(0), 9);
            for (int w : inFlight) {
                record(autodisk, CompareTable.direct(w), InsertWorkload.load(direct, status.ranges(), v, loadCount, w,
                        10));
            }
        }
    }

    private String runRedis(Path bin) throws Exception {
        Path dir = Files.createTempDirectory("redis-compare");
        try (RedisCluster r = RedisCluster.start(bin, dir, redisPort, size.dataNodes())) {
            r.benchmark(1, warmup, value.valueBytes);
            record(redis, CompareTable.SEQUENTIAL, r.benchmark(1, count, value.valueBytes));
            for (int w : inFlight) {
                record(redis, CompareTable.anyNode(w), r.benchmark(w, loadCount, value.valueBytes));
            }
            return r.version();
        } finally {
            LocalBenchNodes.deleteQuietly(dir);
        }
    }

    private static void record(Map<String, List<double[]>> rows, String row, InsertWorkload.Stats s) {
        System.out.printf("  AutoDisk %s: p50 %.0f µs, p99 %.0f µs%s%n", row, s.p50Micros(), s.p99Micros(),
                s.throughput() > 0 ? String.format(", %.0f inserts/s", s.throughput()) : "");
        double[] round = {s.p50Micros(), s.p99Micros(), s.throughput()};
        rows.computeIfAbsent(row, k -> new ArrayList<>()).add(round);
    }

    private static void record(Map<String, List<double[]>> rows, String row, RedisCluster.Result r) {
        System.out.printf("  Redis %s: p50 %.0f µs, p99 %.0f µs, %.0f SETs/s%n", row, r.p50Micros(), r.p99Micros(),
                r.rps());
        rows.computeIfAbsent(row, k -> new ArrayList<>()).add(new double[] {r.p50Micros(), r.p99Micros(), r.rps()});
    }

    private byte[] value() {
        byte[] v = new byte[value.valueBytes];
        new Random(1).nextBytes(v);
        return v;
    }

    private String reportText(String redisVersion, String table) {
        return "# AutoDisk against Redis Cluster, " + LocalDate.now() + "\n\n"
                + "`./autodisk bench compare --data-nodes " + size.dataNodes() + " --log-nodes " + size.logNodes()
                + " --multiplicity " + size.multiplicity() + " --in-flight " + String.join(",",
                        inFlight.stream().map(String::valueOf).toList()) + " --rounds " + rounds + " --count " + count
                + " --load-count " + loadCount + "`, on one machine with " + Runtime.getRuntime().availableProcessors()
                + " cores (" + System.getProperty("os.name") + ", Java " + Runtime.version() + ").\n\n"
                + "AutoDisk: " + size.dataNodes() + " data nodes and " + size.logNodes() + " log nodes (multiplicity "
                + size.multiplicity() + "), each its own process on loopback, the Java client; every insert is "
                + "fsynced in a log node's journal before it is answered.\n"
                + "Redis: " + redisVersion + ", " + size.dataNodes() + " masters, `appendonly yes`, "
                + "`appendfsync always`, measured by `redis-benchmark --cluster -t set -d " + value.valueBytes
                + "` with one connection per request in flight.\n\n" + table + "\n"
                + "Medians over the rounds; the two systems alternate and never run at the same time. Ratios are "
                + "AutoDisk / Redis: above 1 for latency means AutoDisk is slower, below 1 for throughput means it "
                + "does less.\n";
    }

    private static Optional<Path> onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Paths.get(d, program))) {
                return Optional.of(Paths.get(d));
            }
        }
        return Optional.empty();
    }
}
