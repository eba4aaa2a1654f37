package org.autodisk.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.autodisk.bench.BenchCluster.Spec;

/**
 * The seed paper's insert-cost experiments (§3.3-3.6, Tables 3-9) on clusters whose nodes a {@link BenchNodes}
 * starts (local processes, or containers in the integration tests):
 * <ol type="a">
 *   <li>the response time of one insert with 1 data + 1 log node, and with 2 data + 1 log node forwarded through
 *       the non-owner (sequential, traced);</li>
 *   <li>the mean time per insert for N new streams, sent one at a time and with requests in flight;</li>
 *   <li>throughput by stream size with requests in flight;</li>
 *   <li>(b) and (c) with log multiplicity 1 (2 data + 1 log) and 2 (2 data + 2 log);</li>
 *   <li>the components of one insert from the traces of (a), like Table 5.</li>
 * </ol>
 * Every request enters at d1; with two data nodes, (b) and (c) alternate keys between both ranges, so every
 * other insert is forwarded. Used by {@code autodisk bench insert} and by the integration test.
 */
public final class InsertExperiments {

    private static final Duration SETTLE = Duration.ofSeconds(5);
    private static final int KB = 1024;

    private final Settings settings;
    private final BenchNodes nodes;
    private final Progress progress;
    private final List<InsertResults.ResponseRow> response = new ArrayList<>();
    private final List<InsertResults.StreamsRow> streams = new ArrayList<>();
    private final List<InsertResults.SizeRow> sizes = new ArrayList<>();
    private final List<InsertResults.ComponentRow> components = new ArrayList<>();
    private final List<InsertResults.ClusterRow> clusters = new ArrayList<>();
    private Tracker tracker;
    private int clusterIndex;
    private volatile BenchCluster current;

    /**
     * Receives progress while the experiments run.
     */
    @FunctionalInterface
    public interface Progress {

        /** Discards progress. */
        Progress NONE = (phase, done, total) -> { };

        /**
         * Reports progress; called at most ten times a second, and at every phase change.
         *
         * @param phase what runs now
         * @param done  work units done
         * @param total work units planned
         */
        void update(String phase, long done, long total);
    }

    /**
     * What to run.
     *
     * @param samples      (a) sequential traced inserts per scenario
     * @param warmup       unmeasured inserts in flight on each cluster before it is measured (JIT warm-up)
     * @param streamCounts (b) the stream counts N
     * @param sizesBytes   (c) the stream sizes
     * @param sizeStreams  (c) streams per size; 0 picks max(500, min(20000, 32 MiB / size))
     * @param inFlight     requests in flight in (b) and (c)
     * @param basePort     first port of local clusters; they use basePort, basePort + 10, ... (see
     *                     {@link BenchNodes#localProcesses})
     * @param extraYaml    extra node configuration for every node (may be empty)
     */
    public record Settings(int samples, int warmup, List<Integer> streamCounts, List<Integer> sizesBytes,
            int sizeStreams, int inFlight, int basePort, String extraYaml) {

        /** The seed's stream counts (Tables 6, 7). */
        public static final List<Integer> SEED_COUNTS = List.of(100, 500, 1000, 2000, 3000, 4000, 5000);
        /** The seed's stream sizes (Tables 8, 9). */
        public static final List<Integer> SEED_SIZES = List.of(KB, 2 * KB, 4 * KB, 8 * KB, 16 * KB, 32 * KB);

        /** Copies the lists. */
        public Settings {
            streamCounts = List.copyOf(streamCounts);
            sizesBytes = List.copyOf(sizesBytes);
        }

        /**
         * The full run: the seed's counts and sizes and onward to 1,000,000 streams and 1 MB streams.
         *
         * @param basePort first port
         * @return the settings
         */
        public static Settings full(int basePort) {
            List<Integer> counts = new ArrayList<>(SEED_COUNTS);
            counts.addAll(List.of(10_000, 100_000, 1_000_000));
            List<Integer> sizes = new ArrayList<>(SEED_SIZES);
            for (int s = 64 * KB; s <= KB * KB; s *= 2) {
                sizes.add(s);
            }
            return new Settings(5000, 50_000, counts, sizes, 0, 16, basePort, "");
        }

        /**
         * The seed's counts and sizes only, with fewer samples.
         *
         * @param basePort first port
         * @return the settings
         */
        public static Settings quick(int basePort) {
            return new Settings(2000, 20_000, SEED_COUNTS, SEED_SIZES, 0, 16, basePort, "");
        }

        /**
         * Returns these settings with other node configuration.
         *
         * @param yaml extra YAML lines for every node
         * @return the settings
         */
        public Settings withExtraYaml(String yaml) {
            return new Settings(samples, warmup, streamCounts, sizesBytes, sizeStreams, inFlight, basePort, yaml);
        }

        /**
         * Returns the streams (c) inserts of one size.
         *
         * @param sizeBytes the size
         * @return the count
         */
        public int streamsOfSize(int sizeBytes) {
            return sizeStreams > 0 ? sizeStreams : Math.max(500, Math.min(20_000, (32 * KB * KB) / sizeBytes));
        }
    }

    /**
     * Prepares a run on local clusters of node processes.
     *
     * @param settings  what to run
     * @param workDir   where the clusters' files go (one subdirectory per cluster)
     * @param progress  receives progress
     * @param keepFiles whether to keep the clusters' data and logs after the run
     */
    public InsertExperiments(Settings settings, Path workDir, Progress progress, boolean keepFiles) {
        this(settings, BenchNodes.localProcesses(workDir, settings.basePort(), keepFiles), progress);
    }

    /**
     * Prepares a run on clusters of any kind.
     *
     * @param settings what to run ({@link Settings#basePort()} matters only to the local launcher)
     * @param nodes    starts the nodes of each cluster
     * @param progress receives progress
     */
    public InsertExperiments(Settings settings, BenchNodes nodes, Progress progress) {
        this.settings = settings;
        this.nodes = nodes;
        this.progress = progress;
    }

    /**
     * Runs every experiment, one cluster at a time.
     *
     * @return the measurements
     * @throws IOException          if a cluster cannot be started
     * @throws InterruptedException if interrupted
     */
    public InsertResults run() throws IOException, InterruptedException {
        Instant started = Instant.now();
        tracker = new Tracker(progress, plannedUnits());
        try (BenchCluster a = start(new Spec("A: 1 data + 1 log, m=1", 1, 1, 1, "rocksdb"))) {
            traced(a, "one insert, 1 data + 1 log node (served by the owner)", "§3.3",
                    PaperFigures.RESPONSE_1D_1L_MS, "d1");
            done(a);
        }
        try (BenchCluster b = start(new Spec("B: 2 data + 1 log, m=1", 2, 1, 1, "rocksdb"))) {
            traced(b, "one insert, 2 data + 1 log nodes (forwarded d1 -> d2)", "§3.3",
                    PaperFigures.RESPONSE_2D_1L_MS, b.otherOwner());
            traced(b, "one insert, 2 data + 1 log nodes (served by the owner d1)", "—", null, "d1");
            streamsAndSizes(b);
            done(b);
        }
        try (BenchCluster c = start(new Spec("C: 2 data + 2 log, m=2", 2, 2, 2, "rocksdb"))) {
            traced(c, "one insert, 2 data + 2 log nodes, m=2 (forwarded d1 -> d2)", "—", null, c.otherOwner());
            streamsAndSizes(c);
            done(c);
        }
        try (BenchCluster q = start(new Spec("Q: 2 data, no log, in-memory store", 2, 0, 1, "memory"))) {
            traced(q, "queue + network only, no disk (served by the owner d1)", "Table 3",
                    PaperFigures.QUEUE_ONLY_1D_MS, "d1");
            traced(q, "queue + network only, no disk (forwarded d1 -> d2)", "Table 3",
                    PaperFigures.QUEUE_ONLY_2D_MS, q.otherOwner());
            done(q);
        }
        tracker.finish();
        return new InsertResults(started, settings, nodes.kind(), nodes.description(), List.copyOf(response),
                List.copyOf(streams), List.copyOf(sizes), List.copyOf(components), List.copyOf(clusters), tracker.ms());
    }

    /**
     * Stops the cluster that runs now, if any, and whatever a cluster still starting has started: for a shutdown
     * hook, so that Ctrl-C leaves no nodes running.
     */
    public void abort() {
        BenchCluster c = current;
        if (c != null) {
            c.close();
        }
        nodes.abort();
    }

    private BenchCluster start(Spec spec) throws IOException, InterruptedException {
        tracker.phase("starting cluster " + spec.name());
        double t = tracker.ms();
        String label = "cluster-" + (char) ('a' + clusterIndex++);
        BenchCluster c = BenchCluster.start(nodes, spec, label, settings.extraYaml(), t);
        current = c;
        tracker.advance(Tracker.startUnits(spec.dataNodes() + spec.logNodes()));
        tracker.phase("warm-up " + spec.name());
        byte[] value = value(KB);
        InsertLoad.inFlight(c, c::keyAnyRange, value, settings.warmup(), settings.inFlight(), tracker);
        InsertLoad.sequential(c, c::keyAnyRange, value, Math.min(1000, settings.warmup() / 10), tracker);
        settle(c);
        return c;
    }

    private void traced(BenchCluster c, String scenario, String paperRef, Double paperMs, String owner)
            throws InterruptedException {
        tracker.phase("(a) " + scenario);
        InsertLoad.TracedRun r = InsertLoad.traced(c, () -> c.keyOwnedBy(owner), value(KB), settings.samples(),
                tracker);
        String path = owner.equals("d1") ? "d1" : "d1 -> " + owner;
        response.add(new InsertResults.ResponseRow(scenario, c.name, path, paperRef, paperMs, r.run().errors(),
                r.run().latency(), r.run().span()));
        components.addAll(InsertComponents.of(scenario, r.traces()));
        settle(c);
    }

    private void streamsAndSizes(BenchCluster c) throws InterruptedException {
        byte[] value = value(KB);
        String inFlightMode = "in-flight-" + settings.inFlight();
        for (int n : settings.streamCounts()) {
            tracker.phase("(b) m=" + c.multiplicity + " sequential, N=" + n);
            InsertLoad.Run seq = InsertLoad.sequential(c, c::keyAnyRange, value, n, tracker);
            streams.add(streamsRow(c, "sequential", seq));
            settle(c);
            tracker.phase("(b) m=" + c.multiplicity + " " + settings.inFlight() + " in flight, N=" + n);
            InsertLoad.Run par = InsertLoad.inFlight(c, c::keyAnyRange, value, n, settings.inFlight(), tracker);
            streams.add(streamsRow(c, inFlightMode, par));
            settle(c);
        }
        for (int size : settings.sizesBytes()) {
            int n = settings.streamsOfSize(size);
            tracker.phase("(c) m=" + c.multiplicity + " " + size / KB + " KB x " + n);
            InsertLoad.Run r = InsertLoad.inFlight(c, c::keyAnyRange, value(size), n, settings.inFlight(), tracker);
            sizes.add(new InsertResults.SizeRow(c.multiplicity, size, n, settings.inFlight(), r.errors(),
                    r.totalMs(), r.latency(), r.span()));
            settle(c);
        }
    }

    private static InsertResults.StreamsRow streamsRow(BenchCluster c, String mode, InsertLoad.Run r) {
        return new InsertResults.StreamsRow(c.multiplicity, mode, r.n(), r.errors(), r.totalMs(), r.latency(),
                r.span());
    }

    private void settle(BenchCluster c) throws InterruptedException {
        c.settle(SETTLE);
        tracker.advance(Tracker.settleUnits());
    }

    private void done(BenchCluster c) {
        clusters.add(c.row(tracker.ms()));
    }

    private static byte[] value(int size) {
        byte[] v = new byte[size];
        new Random(size).nextBytes(v);
        return v;
    }

    private long plannedUnits() {
        long units = 0;
        int[][] shapes = {{1, 1}, {2, 1}, {2, 2}, {2, 0}};
        int[] traced = {1, 2, 1, 2};
        for (int i = 0; i < shapes.length; i++) {
            units += Tracker.startUnits(shapes[i][0] + shapes[i][1]) + Tracker.settleUnits() * (1 + traced[i])
                    + settings.warmup() * Tracker.inFlightUnits(KB)
                    + (Math.min(1000, settings.warmup() / 10) + (long) traced[i] * settings.samples())
                    * Tracker.sequentialUnits(KB);
        }
        long perMultiplicity = 0;
        for (int n : settings.streamCounts()) {
            perMultiplicity += n * (Tracker.sequentialUnits(KB) + Tracker.inFlightUnits(KB))
                    + 2 * Tracker.settleUnits();
        }
        for (int size : settings.sizesBytes()) {
            perMultiplicity += settings.streamsOfSize(size) * Tracker.inFlightUnits(size) + Tracker.settleUnits();
        }
        return units + 2 * perMultiplicity;
    }
}
