package org.autodisk.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.config.ConfigLayer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench directory-live}: search and insert throughput on a real local cluster as the update ratio
 * rises, the range map and the Fat-Btree in turn (alternating, in the same run). An operation is a search of a
 * stored key or, with the update ratio's probability, an insert of a new key; one range in every
 * {@code --split-every} inserts is split at the key just inserted, so the directory changes as fast as the inserts
 * grow the data, as a B-tree's leaves split under inserts.
 */
@Command(name = "directory-live", footer = "  autodisk bench directory-live --report docs/results/directory-live",
        defaultValueProvider = BenchOptions.PortDefault.class,
        description = "Search and insert throughput as the update ratio rises: range map vs Fat-Btree, local cluster.")
final class DirectoryLiveBench implements Callable<Integer> {

    static final List<String> KINDS = List.of("range", "fat-btree");

    @Option(names = "--data-nodes", defaultValue = "4", description = "Data nodes (default: ${DEFAULT-VALUE}).")
    int dataNodes;

    @Option(names = "--ranges", defaultValue = "16", description = "Ranges the cluster is created with, split evenly "
            + "by first key byte (default: ${DEFAULT-VALUE}).")
    int ranges;

    @Option(names = "--fanout", defaultValue = "4", description = "directory.fanout of the Fat-Btree (default: "
            + "${DEFAULT-VALUE}: a few ranges make a tree of several levels).")
    int fanout;

    @Option(names = "--ratios", split = ",", defaultValue = "0,0.05,0.2,0.5,1",
            description = "Update ratios: the share of operations that insert (default: ${DEFAULT-VALUE}).")
    List<Double> ratios;

    @Option(names = "--ops", defaultValue = "20000", description = "Measured operations per ratio.")
    int ops;

    @Option(names = "--preload", defaultValue = "20000", description = "Keys stored before the ratios (searched).")
    int preload;

    @Option(names = "--warmup", defaultValue = "20000", description = "Unmeasured operations (half inserts) first.")
    int warmup;

    @Option(names = "--in-flight", defaultValue = "64", description = "Concurrent requests (default: "
            + "${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--split-every", defaultValue = "250", description = "Inserts per range split (default: "
            + "${DEFAULT-VALUE}).")
    int splitEvery;

    @Option(names = "--rounds", defaultValue = "2", description = "Clusters per kind, alternating (default: "
            + "${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--report", description = "Write results.csv, report.md and a chart into this directory.")
    Path report;

    @Mixin
    BenchOptions.Port port;

    /** One measured ratio on one cluster. */
    record Row(String kind, int round, double ratio, int ops, double opsPerSecond, long searches, long inserts,
            long splits, long errors, int rangesAfter, int levels, int indexPages) {
    }

    @Override
    public Integer call() throws Exception {
        Locale.setDefault(Locale.ROOT);
        List<Row> rows = new ArrayList<>();
        System.out.println(DirectoryLiveReport.HEADER);
        for (int round = 1; round <= rounds; round++) {
            for (String kind : KINDS) {
                for (Row r : cluster(kind, round)) {
                    System.out.println(DirectoryLiveReport.line(r));
                    rows.add(r);
                }
            }
        }
        System.out.print(DirectoryLiveReport.ratios(rows));
        if (report != null) {
            Files.createDirectories(report);
            DirectoryLiveReport.write(rows, this, report);
            System.out.println("report written to " + report);
        }
        return 0;
    }

    private List<Row> cluster(String kind, int round) throws Exception {
        Map<String, Object> set = new HashMap<>(Map.of("cluster.directory", kind, "directory.fanout", fanout,
                "cluster.split-points", splitPoints()));
        Path dir = Files.createTempDirectory("autodisk-bench-directory");
        try (LocalCluster c = LocalCluster.start(new LocalCluster.Layout(dir, dataNodes, 1, port.basePort, List.of()),
                List.of(new ConfigLayer("directory-live", set))).deleteOnClose();
                AutoDiskClient client = AutoDiskClient.builder().seeds(c.addresses().get(0)).build()) {
            Workload w = new Workload(client, new Random(round));
            w.run(preload, 1.0, false);
            w.run(warmup, 0.5, false);
            List<Row> out = new ArrayList<>();
            for (double ratio : ratios) {
                w.reset();
                long t0 = System.nanoTime();
                w.run(ops, ratio, true);
                double seconds = (System.nanoTime() - t0) / 1e9;
                org.autodisk.core.cluster.DirectoryReport d = client.admin().directory();
                out.add(new Row(kind, round, ratio, ops, ops / seconds, w.searches.get(), w.inserts.get(),
                        w.splits.get(), w.errors.get(), client.admin().ranges().ranges().size(), d.levels(),
                        d.indexPages()));
            }
            return out;
        }
    }

    private List<String> splitPoints() {
        List<String> points = new ArrayList<>();
        for (int i = 1; i < ranges; i++) {
            points.add(String.format("0x%02x", i * 256 / ranges));
        }
        return points;
    }

    /** Searches of stored keys and inserts of new ones, a window of requests in flight, splits on the side. */
    private final class Workload {
        private final AutoDiskClient client;
        private final Random rnd;
        private final List<byte[]> stored = new ArrayList<>();
        private final byte[] value = new byte[100];
        private final ExecutorService splitter = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon()
                .factory());
        final AtomicLong searches = new AtomicLong();
        final AtomicLong inserts = new AtomicLong();
        final AtomicLong splits = new AtomicLong();
        final AtomicLong errors = new AtomicLong();

        Workload(AutoDiskClient client, Random rnd) {
            this.client = client;
            this.rnd = rnd;
            rnd.nextBytes(value);
        }

        void reset() {
            searches.set(0);
            inserts.set(0);
            splits.set(0);
            errors.set(0);
        }

        void run(int n, double ratio, boolean split) throws InterruptedException {
            Semaphore window = new Semaphore(inFlight);
            long sinceSplit = 0;
            for (int i = 0; i < n; i++) {
                window.acquire();
                boolean insert = stored.isEmpty() || rnd.nextDouble() < ratio;
                byte[] key = insert ? newKey() : stored.get(rnd.nextInt(stored.size()));
                (insert ? client.async().insert(key, value) : client.async().search(key)).whenComplete((r, e) -> {
                    if (e != null) {
                        errors.incrementAndGet();
                    }
                    window.release();
                });
                (insert ? inserts : searches).incrementAndGet();
                if (insert && split && ++sinceSplit % splitEvery == 0) {
                    splitter.execute(() -> split(key));
                }
            }
            window.acquire(inFlight);
            try {
                splitter.submit(() -> { }).get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e);
            }
        }

        private byte[] newKey() {
            byte[] key = new byte[12];
            rnd.nextBytes(key);
            stored.add(key);
            return key;
        }

        private void split(byte[] key) {
            try {
                client.admin().split(key);
                splits.incrementAndGet();
            } catch (RuntimeException refused) {
                errors.incrementAndGet();
            }
        }
    }
}
