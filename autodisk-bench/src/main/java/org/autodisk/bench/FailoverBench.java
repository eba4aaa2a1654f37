package org.autodisk.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import org.autodisk.bench.faults.FailoverLog;
import org.autodisk.bench.faults.FaultRun;
import org.autodisk.cli.LocalCluster;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.AutoDiskException;
import org.autodisk.client.StreamEntry;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.RangeStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench failover}: how long writes to a killed owner's range fail. A local cluster (3 data nodes, 2 log
 * nodes, multiplicity 2) is loaded with streams; each round {@code kill -9}s the owner of a range that has a backup,
 * writes to a key of that range until a write is acknowledged, reads from the nodes' logs when the failure was
 * declared, the range promoted, taken over from the backup copy and served, restarts the killed node and times its
 * return (declared failed, it drops what moved on and rejoins), and waits until every range has a backup again.
 */
@Command(name = "failover", footer = "  autodisk bench failover --kills 20 --report docs/results/failover-2026-11-26",
        description = "Kills range owners with kill -9 and times the failover to their backups.")
final class FailoverBench implements Callable<Integer> {

    @Option(names = "--kills", defaultValue = "20", description = "Owners killed, one at a time (default: "
            + "${DEFAULT-VALUE}).")
    int kills;

    @Option(names = "--streams", defaultValue = "30000", description = "Streams loaded before the first kill, spread "
            + "over the key space (default: ${DEFAULT-VALUE}).")
    int streams;

    @Option(names = "--value-bytes", defaultValue = "1024", description = "Bytes per value (default: "
            + "${DEFAULT-VALUE}).")
    int valueBytes;

    @Option(names = "--base-port", defaultValue = "7950", description = "First port of the cluster (default: "
            + "${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--report", description = "Write failover.csv and report.md into this directory.")
    Path report;

    /** One kill: when each step came after it (ms), -1 if not seen. */
    private record Round(String victim, int rangeId, long victimStreams, long declared, long promoted,
            long takenOver, long served, long firstWrite, long rejoined) {
    }

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("autodisk-failover");
        List<Round> rounds = new ArrayList<>();
        try (LocalCluster cluster = LocalCluster.start(dir, 3, 2, basePort, List.of(),
                "wal.multiplicity: 2\nbalance.check-ms: 2000\n")) {
            List<String> seeds = cluster.addresses().subList(0, 3);
            load(seeds);
            FaultRun.settle(seeds, 3);
            ProgressBar bar = ProgressBar.onStderr();
            for (int i = 0; i < kills; i++) {
                rounds.add(round(cluster, dir, i));
                bar.update("kill " + (i + 1) + " of " + kills, i + 1, kills);
                List<String> unsettled = FaultRun.settle(seeds, 3);
                if (!unsettled.isEmpty()) {
                    bar.finish();
                    System.err.println("failover: the cluster did not settle after kill " + (i + 1) + ": " + unsettled);
                    return 1;
                }
            }
            bar.finish();
        }
        String table = table(rounds);
        System.out.println(table);
        if (report != null) {
            write(rounds, table);
        }
        return 0;
    }

    private void load(List<String> seeds) {
        byte[] value = new byte[valueBytes];
        Arrays.fill(value, (byte) 'v');
        try (AutoDiskClient c = AutoDiskClient.builder().seeds(seeds).requestTimeout(Duration.ofSeconds(30))
                .build()) {
            List<StreamEntry> batch = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                batch.add(new StreamEntry(key(i), value));
                if (batch.size() == 1000 || i == streams - 1) {
                    c.insertBatch(batch);
                    batch.clear();
                }
            }
        }
    }

    /** Keys spread evenly over the key space by their first four bytes. */
    private byte[] key(int i) {
        long spread = (long) i * (1L << 32) / Math.max(1, streams);
        return new byte[] {(byte) (spread >>> 24), (byte) (spread >>> 16), (byte) (spread >>> 8), (byte) spread, 'f'};
    }

    private Round round(LocalCluster cluster, Path dir, int i) throws Exception {
        int victim = i % 3;
        String id = cluster.ids().get(victim);
        List<String> others = new ArrayList<>(cluster.addresses().subList(0, 3));
        others.remove(victim);
        RangeStatus r;
        long held;
        try (AutoDiskClient c = AutoDiskClient.builder().seeds(others).build()) {
            List<RangeStatus> ranges = c.admin().ranges().ranges();
            r = ranges.stream().filter(x -> x.owner().equals(id) && x.backup() != null).findFirst().orElseThrow(
                    () -> new IllegalStateException(id + " owns no range with a backup"));
            held = ranges.stream().filter(x -> x.owner().equals(id)).mapToLong(x -> Math.max(0, x.keys())).sum();
        }
        byte[] probe = Arrays.copyOf(r.low(), r.low().length + 1);
        long killMs = FailoverLog.msOfDay(LocalTime.now());
        long killNanos = System.nanoTime();
        cluster.kill(victim);
        long firstWrite = firstWrite(others, probe, killNanos);
        FailoverLog log = new FailoverLog(cluster.ids().stream().map(n -> dir.resolve(n + ".log")).toList());
        long declared = since(killMs, log.first(killMs, "declaring " + id + " "));
        long promoted = since(killMs, log.first(killMs, "promoting range " + r.id() + " "));
        long takenOver = since(killMs, log.first(killMs, "range " + r.id() + " ", "taken over from the backup copy"));
        long served = since(killMs, log.first(killMs, "range " + r.id() + " ", "serves here after its failover"));
        long restart = System.nanoTime();
        cluster.restart(victim);
        long rejoined = rejoined(others, id, restart);
        return new Round(id, r.id(), held, declared, promoted, takenOver, served, firstWrite, rejoined);
    }

    private static long since(long killMs, OptionalLong at) {
        return at.isPresent() ? at.getAsLong() - killMs : -1;
    }

    /** Writes to the probe key until one is acknowledged; returns how long after the kill (ms). */
    private static long firstWrite(List<String> seeds, byte[] probe, long killNanos) {
        try (AutoDiskClient c = AutoDiskClient.builder().seeds(seeds).requestTimeout(Duration.ofMillis(500))
                .build()) {
            for (int n = 0; ; n++) {
                try {
                    c.insert(probe, Keys.utf8("after-kill-" + n));
                    return (System.nanoTime() - killNanos) / 1_000_000;
                } catch (AutoDiskException e) {
                    if (System.nanoTime() - killNanos > Duration.ofSeconds(60).toNanos()) {
                        throw e;
                    }
                }
            }
        }
    }

    /** Waits until the restarted node is up again in the metadata; returns how long after its restart began (ms). */
    private static long rejoined(List<String> seeds, String id, long restart) throws InterruptedException {
        try (AutoDiskClient c = AutoDiskClient.builder().seeds(seeds).build()) {
            while (System.nanoTime() - restart < Duration.ofSeconds(120).toNanos()) {
                if (c.admin().members().members().stream().anyMatch(m -> m.id().equals(id)
                        && "up".equals(m.state()))) {
                    return (System.nanoTime() - restart) / 1_000_000;
                }
                Thread.sleep(20);
            }
        }
        return -1;
    }

    private static String table(List<Round> rounds) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-4s %-6s %-6s %9s %9s %9s %9s %9s %11s %9s%n",
                "KILL", "OWNER", "RANGE", "STREAMS", "DECLARED", "PROMOTED", "TAKEN", "SERVED", "FIRST WRITE",
                "REJOINED"));
        for (int i = 0; i < rounds.size(); i++) {
            Round r = rounds.get(i);
            b.append(String.format(Locale.ROOT, "%-4d %-6s %-6d %9d %9d %9d %9d %9d %11d %9d%n", i + 1, r.victim(),
                    r.rangeId(), r.victimStreams(), r.declared(), r.promoted(), r.takenOver(), r.served(),
                    r.firstWrite(), r.rejoined()));
        }
        b.append("ms after the kill (REJOINED: after the restart began); medians / p99 / max:\n");
        stat(b, "declared failed", rounds.stream().mapToLong(Round::declared).toArray());
        stat(b, "range promoted", rounds.stream().mapToLong(Round::promoted).toArray());
        stat(b, "taken over", rounds.stream().mapToLong(Round::takenOver).toArray());
        stat(b, "served", rounds.stream().mapToLong(Round::served).toArray());
        stat(b, "first write acknowledged", rounds.stream().mapToLong(Round::firstWrite).toArray());
        stat(b, "rejoined after restart", rounds.stream().mapToLong(Round::rejoined).toArray());
        return b.toString();
    }

    private static void stat(StringBuilder b, String what, long[] values) {
        long[] seen = Arrays.stream(values).filter(v -> v >= 0).sorted().toArray();
        if (seen.length == 0) {
            b.append(String.format(Locale.ROOT, "  %-26s not seen%n", what));
            return;
        }
        b.append(String.format(Locale.ROOT, "  %-26s %6d / %6d / %6d ms (%d of %d)%n", what,
                seen[(seen.length - 1) / 2], seen[(int) Math.ceil(seen.length * 0.99) - 1], seen[seen.length - 1],
                seen.length, values.length));
    }

    private void write(List<Round> rounds, String table) throws java.io.IOException {
        Files.createDirectories(report);
        StringBuilder csv = new StringBuilder("kill,owner,range,streams,declared_ms,promoted_ms,taken_over_ms,"
                + "served_ms,first_write_ms,rejoined_ms\n");
        for (int i = 0; i < rounds.size(); i++) {
            Round r = rounds.get(i);
            csv.append(i + 1).append(',').append(r.victim()).append(',').append(r.rangeId()).append(',')
                    .append(r.victimStreams()).append(',').append(r.declared()).append(',').append(r.promoted())
                    .append(',').append(r.takenOver()).append(',').append(r.served()).append(',')
                    .append(r.firstWrite()).append(',').append(r.rejoined()).append('\n');
        }
        Files.writeString(report.resolve("failover.csv"), csv);
        Files.writeString(report.resolve("report.md"), "# Failover of killed owners\n\n`./autodisk bench failover "
                + "--kills " + kills + " --streams " + streams + "`: 3 data nodes, 2 log nodes, multiplicity 2, "
                + streams + " streams of " + valueBytes + " bytes, default failure.* and lease.* settings.\n\n```\n"
                + table + "```\n");
        System.out.println("failover: report written to " + report);
    }
}
