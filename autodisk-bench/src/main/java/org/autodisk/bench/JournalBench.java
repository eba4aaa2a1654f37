package org.autodisk.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench journal}: the two ways a log node can keep every ledger in one journal, measured side by
 * side on this disk before one is chosen (issue 13): our own segment files (append, one fsync per group, an index in
 * memory, whole segments deleted once truncated) against RocksDB with a synced WAL (one synced write batch per group,
 * its keys the index, truncation by range deletes). Entries are spread over several ledgers as a log node's are over
 * ranges; each group is what one group commit would write. Reports entries/s, fsync latency and CPU per entry (the
 * whole process, so RocksDB's flush and compaction threads count), then how fast the journal is read back.
 */
@Command(name = "journal", footer = "  autodisk bench journal --entries 200000 --group 1,16,128",
        description = "A log node's journal on this disk: own segment files versus RocksDB with a synced WAL.")
final class JournalBench implements Callable<Integer> {

    @Option(names = "--entries", defaultValue = "200000", description = "Entries written per engine and group size.")
    int entries;

    @Option(names = "--group", split = ",", defaultValue = "1,16,128",
            description = "Entries per group commit (one fsync each); several values give several rows.")
    int[] groups;

    @Option(names = "--ledgers", defaultValue = "16", description = "Ledgers the entries are spread over.")
    int ledgers;

    @Option(names = "--keep", defaultValue = "20000",
            description = "Entries kept per truncation: older ones are truncated as owners and backups catch up.")
    int keep;

    @Option(names = "--value-bytes", defaultValue = "1024", description = "Entry size (default: ${DEFAULT-VALUE}).")
    int valueBytes;

    @Option(names = "--dir", description = "Where to write (default: a temporary directory on the data disk).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        Path base = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("autodisk-bench-journal");
        System.out.println("| engine | entries per fsync | entries/s | fsync p50 us | fsync p99 us | CPU us per entry "
                + "| read back entries/s |");
        System.out.println("|---|---|---|---|---|---|---|");
        try {
            for (int group : groups) {
                for (String engine : List.of("segments", "rocksdb")) {
                    Path d = Files.createDirectories(base.resolve(engine + "-" + group));
                    try (JournalEngine e = engine.equals("segments") ? JournalEngine.segments(d)
                            : JournalEngine.rocksdb(d)) {
                        System.out.println(row(engine, group, run(e, group)));
                    }
                    JournalEngine.deleteTree(d);
                }
            }
        } finally {
            if (dir == null) {
                JournalEngine.deleteTree(base);
            }
        }
        return 0;
    }

    private Result run(JournalEngine e, int group) throws IOException {
        byte[] value = new byte[valueBytes];
        Histogram fsync = new Histogram(3);
        long[] next = new long[ledgers];
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        List<JournalEngine.Entry> batch = new ArrayList<>(group);
        for (int i = 0; i < entries; i += group) {
            batch.clear();
            for (int j = 0; j < group && i + j < entries; j++) {
                int ledger = (i + j) % ledgers;
                value[0] = (byte) (i + j);
                batch.add(new JournalEngine.Entry(ledger + 1, ++next[ledger], value));
            }
            long s = System.nanoTime();
            e.write(batch);
            fsync.recordValue((System.nanoTime() - s) / 1000);
            if ((i / group + 1) % Math.max(1, keep / group) == 0) {
                truncate(e, next);
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpuPerEntry = (processCpuNanos() - cpu0) / 1000.0 / entries;
        long r0 = System.nanoTime();
        long read = e.readAll();
        double readRate = read / ((System.nanoTime() - r0) / 1e9);
        return new Result(entries / seconds, fsync, cpuPerEntry, readRate);
    }

    private void truncate(JournalEngine e, long[] next) throws IOException {
        long keepPerLedger = keep / ledgers;
        for (int l = 0; l < ledgers; l++) {
            if (next[l] > keepPerLedger) {
                e.truncate(l + 1, next[l] - keepPerLedger);
            }
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static String row(String engine, int group, Result r) {
        return String.format(Locale.ROOT, "| %s | %d | %,.0f | %d | %d | %.1f | %,.0f |",
                engine.equals("segments") ? "own segment files" : "RocksDB, synced WAL", group, r.rate,
                r.fsync.getValueAtPercentile(50), r.fsync.getValueAtPercentile(99), r.cpuPerEntry, r.readRate);
    }

    private record Result(double rate, Histogram fsync, double cpuPerEntry, double readRate) {
    }
}
