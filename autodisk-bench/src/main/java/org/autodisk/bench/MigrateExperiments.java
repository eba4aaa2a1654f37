package org.autodisk.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.HostMoveResult;
import org.autodisk.client.InvalidRequestException;
import org.autodisk.client.StreamEntry;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.core.cluster.RangeStatus;

/**
 * Runs the migration cost experiments on a cluster: for each stream count and value size, a range of exactly those
 * streams (made by two splits, loaded with batches), moved {@code repeat} times autonomously and {@code repeat} times
 * by the host, alternating, each to the next data node. Around each move a foreground writer inserts into the
 * moving range and another into a second range of the source, one insert at a time; their latencies during the
 * move are compared with a window without migration before it.
 */
public final class MigrateExperiments {

    /** The configuration of the local cluster the bench starts: log multiplicity 2, no balancing of its own. */
    public static final String CLUSTER_YAML = "wal.multiplicity: 2\nbalance.check-ms: 0\n";
    private static final int BATCH = 500;
    /** A batch stays well inside a frame (limits.max-frame-bytes: the value limit and 64 KiB). */
    private static final long BATCH_BYTES = 2L << 20;
    private static final long IDLE_WINDOW_MS = 1500;
    private static final long POLL_MS = 2;
    /** Streams in the range the cutover experiment moves around: small, so a move is mostly its cutover. */
    private static final int CUTOVER_STREAMS = 1000;
    /** Windows without a move before the cutover experiment: the longest insert wait the machine gives anyway. */
    private static final int IDLE_CUTOVER_WINDOWS = 5;

    private final AutoDiskClient client;
    private final Settings settings;
    private final Consumer<Row> sink;

    /**
     * What to run.
     *
     * @param streams    stream counts, one experiment each
     * @param valueBytes value sizes, one experiment each with every count
     * @param repeat     moves per mode and experiment
     * @param rateBytes  the autonomous moves' throttle in bytes/s (0: unthrottled; null: the target's default)
     * @param cutovers   moves of a small range around the data nodes to measure the cutover pause (0: none)
     */
    public record Settings(List<Integer> streams, List<Integer> valueBytes, int repeat, Long rateBytes,
            int cutovers) {
    }

    /**
     * One measured window: a move, or the window without migration before an experiment's moves ({@code idle}).
     *
     * @param mode        {@code autonomous}, {@code host}, {@code idle}, {@code cutover} (a move of the cutover
     *                    experiment) or {@code cutover-idle} (a window of that experiment without a move)
     * @param streams     streams in the range
     * @param valueBytes  their value size
     * @param run         the move's number within its mode
     * @param from        the range's owner before the move
     * @param to          its owner after
     * @param cutoverMs   from the start of the move to its cutover: the range served by the target (the window's
     *                    length for idle)
     * @param totalMs     from the start of the move to its end, the source's clean-up included
     * @param bytes       bytes of keys and values in the range
     * @param moving      foreground insert latency into the moving range, µs
     * @param other       foreground insert latency into another range of the source, µs (null: it has none)
     * @param targetMs    milliseconds the target spent on each part of the move ({@code source-wait}, {@code store},
     *                    {@code flush}, {@code commit}, {@code throttle}, {@code catch-up}, {@code serve}: its
     *                    {@code migration.ms.*} counters) and {@code paused} (how long the range's writes waited
     *                    from the source's stop until the target served it: {@code migration.paused-ms}), empty
     *                    for idle
     */
    public record Row(String mode, int streams, int valueBytes, int run, String from, String to, double cutoverMs,
            double totalMs, long bytes, Latency moving, Latency other, Map<String, Double> targetMs) {

        /** @return milliseconds per stream moved, to the cutover */
        public double msPerStream() {
            return cutoverMs / streams;
        }
    }

    /**
     * Latency figures of a foreground writer.
     *
     * @param count  inserts
     * @param p50Us  median, µs
     * @param p99Us  99th percentile, µs
     * @param maxUs  maximum, µs
     * @param errors inserts that failed
     */
    public record Latency(long count, double p50Us, double p99Us, double maxUs, long errors) {
    }

    /**
     * Prepares the experiments.
     *
     * @param client   a client of the cluster
     * @param settings what to run
     * @param sink     receives each row as it is measured
     */
    public MigrateExperiments(AutoDiskClient client, Settings settings, Consumer<Row> sink) {
        this.client = client;
        this.settings = settings;
        this.sink = sink;
    }

    /**
     * Runs every experiment.
     *
     * @throws InterruptedException if interrupted
     */
    public void run() throws InterruptedException {
        for (int size : settings.valueBytes()) {
            for (int n : settings.streams()) {
                experiment(n, size);
            }
        }
        if (settings.cutovers() > 0) {
            cutovers(settings.cutovers());
        }
    }

    /**
     * Moves a range of {@value #CUTOVER_STREAMS} 1 KB streams around the data nodes, autonomously and unthrottled,
     * with the moving range's writer running: each move's longest insert wait is its cutover pause (the copy of so
     * few streams takes a few milliseconds and does not pause writes).
     */
    private void cutovers(int moves) throws InterruptedException {
        String prefix = "cut-" + Long.toHexString(System.nanoTime());
        byte[] low = (prefix + "/").getBytes(StandardCharsets.UTF_8);
        split(low);
        split((prefix + "0").getBytes(StandardCharsets.UTF_8));
        long bytes = load(low, CUTOVER_STREAMS, 1024);
        RangeStatus range = rangeOf(low);
        for (int run = 1; run <= Math.min(moves, IDLE_CUTOVER_WINDOWS); run++) {
            Writers idle = Writers.start(client, range, low, null);
            TimeUnit.MILLISECONDS.sleep(IDLE_WINDOW_MS);
            idle.stop();
            sink.accept(new Row("cutover-idle", CUTOVER_STREAMS, 1024, run, range.owner(), range.owner(),
                    IDLE_WINDOW_MS, IDLE_WINDOW_MS, bytes, idle.moving(), null, Map.of()));
        }
        for (int run = 1; run <= moves; run++) {
            move("cutover", run, CUTOVER_STREAMS, 1024, bytes, low);
        }
    }

    private void experiment(int n, int size) throws InterruptedException {
        String prefix = "mig-" + n + "-" + size + "-" + Long.toHexString(System.nanoTime());
        byte[] low = (prefix + "/").getBytes(StandardCharsets.UTF_8);
        split(low);
        split((prefix + "0").getBytes(StandardCharsets.UTF_8));
        RangeStatus range = rangeOf(low);
        long bytes = load(low, n, size);
        Writers idle = Writers.start(client, range, low, otherRangeOf(range));
        TimeUnit.MILLISECONDS.sleep(IDLE_WINDOW_MS);
        idle.stop();
        sink.accept(new Row("idle", n, size, 0, range.owner(), range.owner(), IDLE_WINDOW_MS, IDLE_WINDOW_MS, bytes,
                idle.moving(), idle.other(), Map.of()));
        for (int run = 1; run <= settings.repeat(); run++) {
            move("autonomous", run, n, size, bytes, low);
            move("host", run, n, size, bytes, low);
        }
    }

    private void move(String mode, int run, int n, int size, long bytes, byte[] low) throws InterruptedException {
        RangeStatus range = rangeOf(low);
        String to = nextDataNode(range.owner());
        Map<String, Double> before = targetTimes(to);
        Writers w = Writers.start(client, range, low, otherRangeOf(range));
        long t0 = System.nanoTime();
        CompletableFuture<?> moving = mode.equals("host")
                ? CompletableFuture.supplyAsync(() -> hostMove(range.id(), to, n),
                        task -> Thread.ofPlatform().daemon().name("host-move").start(task))
                : CompletableFuture.completedFuture(client.admin().migrate(range.id(), to,
                        mode.equals("cutover") ? Long.valueOf(0) : settings.rateBytes()));
        double cutoverMs = -1;
        while (!moving.isDone() || underWay(range.id())) {
            if (cutoverMs < 0 && !copyingOrCatchingUp(range.id(), moving.isDone())) {
                cutoverMs = (System.nanoTime() - t0) / 1e6;
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
        moving.join();
        double ms = (System.nanoTime() - t0) / 1e6;
        w.stop();
        check(rangeOf(low).owner().equals(to), "range " + range.id() + " did not end on " + to);
        Map<String, Double> parts = new TreeMap<>();
        targetTimes(to).forEach((part, v) -> parts.put(part, v - before.getOrDefault(part, 0.0)));
        sink.accept(new Row(mode, n, size, run, range.owner(), to, cutoverMs < 0 ? ms : cutoverMs, ms, bytes,
                w.moving(), w.other(), parts));
    }

    /** The target's {@code migration.ms.*} counters, by part. */
    private Map<String, Double> targetTimes(String node) {
        Map<String, Double> out = new TreeMap<>();
        client.status().nodes().stream().filter(s -> s.id().equals(node)).findFirst().ifPresent(s -> s.metrics()
                .forEach((k, v) -> {
                    if (k.startsWith(MetricNames.MIGRATION_MS)) {
                        out.put(k.substring(MetricNames.MIGRATION_MS.length()), v);
                    } else if (k.equals(MetricNames.MIGRATION_PAUSED_MS)) {
                        out.put(MigrateReport.PAUSED, v);
                    }
                }));
        return out;
    }

    private HostMoveResult hostMove(int rangeId, String to, int n) {
        try {
            HostMoveResult r = client.admin().moveByHost(rangeId, to);
            check(r.streams() >= n, "the host copied " + r.streams() + " of " + n + " streams");
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private boolean underWay(int rangeId) {
        return client.admin().migrations().migrations().stream().anyMatch(m -> m.rangeId() == rangeId);
    }

    /** Whether the range's migration has not cut over yet (a host move not yet recorded counts as not yet). */
    private boolean copyingOrCatchingUp(int rangeId, boolean started) {
        List<MigrationStatus> of = client.admin().migrations().migrations().stream()
                .filter(m -> m.rangeId() == rangeId).toList();
        if (of.isEmpty()) {
            return !started;
        }
        return of.stream().anyMatch(m -> m.phase().equals("copying") || m.phase().equals("catching up"));
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }

    private void split(byte[] at) {
        try {
            client.admin().split(at);
        } catch (InvalidRequestException e) {
            if (!e.getMessage().contains("already")) {
                throw e;
            }
        }
    }

    private RangeStatus rangeOf(byte[] key) {
        return client.admin().ranges().ranges().stream().filter(r -> contains(r, key)).findFirst().orElseThrow();
    }

    private RangeStatus otherRangeOf(RangeStatus moving) {
        return client.admin().ranges().ranges().stream().filter(r -> r.owner().equals(moving.owner())
                && r.id() != moving.id()).findFirst().orElse(null);
    }

    private String nextDataNode(String owner) {
        List<String> data = client.status().nodes().stream().filter(s -> s.role().equals("data"))
                .map(s -> s.id()).sorted().toList();
        return data.get((data.indexOf(owner) + 1) % data.size());
    }

    private static boolean contains(RangeStatus r, byte[] key) {
        byte[] high = r.high();
        return Arrays.compareUnsigned(r.low(), key) <= 0 && (high == null || Arrays.compareUnsigned(key, high) < 0);
    }

    private long load(byte[] low, int n, int size) {
        byte[] value = new byte[size];
        new Random(size).nextBytes(value);
        List<StreamEntry> batch = new ArrayList<>(BATCH);
        long bytes = 0;
        long batchBytes = 0;
        for (int i = 0; i < n; i++) {
            byte[] key = String.format("%s%08d", new String(low, StandardCharsets.UTF_8), i)
                    .getBytes(StandardCharsets.UTF_8);
            batch.add(new StreamEntry(key, value));
            bytes += key.length + size;
            batchBytes += key.length + size;
            if (batch.size() == BATCH || batchBytes >= BATCH_BYTES || i == n - 1) {
                batchBytes = 0;
                client.insertBatch(batch);
                batch.clear();
            }
        }
        return bytes;
    }

    /** The two foreground writers of one window, each on a thread of its own, one insert at a time. */
    private static final class Writers {

        private final Writer moving;
        private final Writer other;

        private Writers(Writer moving, Writer other) {
            this.moving = moving;
            this.other = other;
        }

        static Writers start(AutoDiskClient client, RangeStatus range, byte[] low, RangeStatus other) {
            Writer m = new Writer(client, concat(low, "~fg-"));
            Writer o = other == null ? null : new Writer(client, concat(other.low(), "\u0000fg-"));
            return new Writers(m, o);
        }

        void stop() throws InterruptedException {
            moving.stop();
            if (other != null) {
                other.stop();
            }
        }

        Latency moving() {
            return moving.latency();
        }

        Latency other() {
            return other == null ? null : other.latency();
        }

        private static byte[] concat(byte[] a, String b) {
            byte[] s = b.getBytes(StandardCharsets.UTF_8);
            byte[] out = Arrays.copyOf(a, a.length + s.length);
            System.arraycopy(s, 0, out, a.length, s.length);
            return out;
        }
    }

    /** Inserts new keys under a prefix until stopped, recording each insert's latency. */
    private static final class Writer {

        private final Histogram histogram = new Histogram(3);
        private final Thread thread;
        private volatile boolean stopped;
        private long errors;

        Writer(AutoDiskClient client, byte[] prefix) {
            byte[] value = new byte[100];
            this.thread = Thread.ofPlatform().daemon().start(() -> {
                for (long i = 0; !stopped; i++) {
                    byte[] key = Writers.concat(prefix, Long.toString(i));
                    long t0 = System.nanoTime();
                    try {
                        client.insert(key, value);
                        histogram.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
                    } catch (RuntimeException e) {
                        errors++;
                    }
                }
            });
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.join();
        }

        Latency latency() {
            return new Latency(histogram.getTotalCount(), histogram.getValueAtPercentile(50),
                    histogram.getValueAtPercentile(99), histogram.getMaxValue(), errors);
        }
    }
}
