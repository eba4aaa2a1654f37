package org.autodisk.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.autodisk.node.AutoDiskNode;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.ledger.LedgerRecovery;
import org.autodisk.node.ledger.LedgerTimer;
import org.autodisk.node.ledger.LedgerWriter;
import org.autodisk.node.ledger.WriterSettings;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.wire.LogRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code autodisk bench ledger}: the log path alone — a ledger writer (LEDGER_APPEND) of one data node to log nodes
 * whose journals are on this disk, applying what is acknowledged to an in-memory store, without the request path.
 */
@Command(name = "ledger", footer = "  autodisk bench ledger --count 20000 --in-flight 1,50,256 --multiplicity 1,2",
        description = "The log path alone: a ledger writer to log nodes, without the request path.")
final class LedgerBench implements Callable<Integer> {

    @Option(names = "--count", defaultValue = "20000", description = "Entries per measurement.")
    int count;

    @Option(names = "--warmup", defaultValue = "5000", description = "Entries written first, not measured.")
    int warmup;

    @Option(names = "--in-flight", split = ",", defaultValue = "1,50,256", description = "Entries outstanding.")
    int[] inFlight;

    @Option(names = "--multiplicity", split = ",", defaultValue = "1,2", description = "Log nodes per entry.")
    int[] multiplicities;

    @Option(names = "--rounds", defaultValue = "2", description = "Rounds per row.")
    int rounds;

    @Option(names = "--value-bytes", defaultValue = "1024", description = "Entry size (default: ${DEFAULT-VALUE}).")
    int valueBytes;

    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("bench-ledger-timer").daemon().factory());
    private final LedgerTimer timer = (ms, task) -> clock.schedule(task, ms, TimeUnit.MILLISECONDS);

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("autodisk-bench-ledger");
        try (InProcessCluster cluster = InProcessCluster.start(dir, 1, 2)) {
            AutoDiskNode d1 = cluster.node("d1");
            System.out.println("| path | log nodes per entry | in flight | entries/s | p50 us | p99 us |");
            System.out.println("|---|---|---|---|---|---|");
            for (int m : multiplicities) {
                List<String> logNodes = List.of("l1", "l2").subList(0, m);
                for (int n : inFlight) {
                    for (int round = 0; round < rounds; round++) {
                        System.out.println(row("ledger", m, n, ledger(d1, logNodes, n)));
                    }
                }
            }
        } finally {
            clock.shutdownNow();
            JournalEngine.deleteTree(dir);
        }
        return 0;
    }

    /** Adds one entry; calls back with true once acknowledged (and applied), false if it failed. */
    private interface LogPath {
        void add(byte[] key, byte[] value, java.util.function.Consumer<Boolean> done);
    }

    private Result ledger(AutoDiskNode d1, List<String> logNodes, int n) throws InterruptedException {
        LocalStore store = LocalStores.inMemory();
        Metadata meta = d1.metadata();
        RangeDescriptor range = meta.current().rangeOf(new byte[0]);
        CommandResult opened = meta.submit(new MetaCommand.OpenLedger(range.id(), range.epoch(), "d1", logNodes),
                Duration.ofSeconds(10)).join();
        if (!opened.applied()) {
            throw new IllegalStateException("cannot open a ledger: " + opened.refusal());
        }
        LedgerInfo info = meta.current().ledger(opened.ledgerId());
        LedgerWriter writer = new LedgerWriter("d1", info, meta, LedgerPeers.over(d1.peers()), timer,
                new WriterSettings(logNodes.size(), Duration.ofSeconds(5), Duration.ofSeconds(10)),
                () -> logNodes, (entries, ack) -> {
                    store.applyLedger(info.id(), entries.stream().map(LedgerEntry::toRecord).toList());
                    ack.run();
                });
        Result r = measure(n, (k, v, done) -> writer.add(range.id(), range.epoch(), LogRecord.PUT, k, v)
                .whenComplete((e, err) -> done.accept(err == null)));
        // the range may have one open ledger: the next measurement's writer recovers and closes this one first
        new LedgerRecovery("d1", meta, LedgerPeers.over(d1.peers()), timer, Duration.ofSeconds(10))
                .recover(info.id()).join();
        return r;
    }

    private Result measure(int n, LogPath path) throws InterruptedException {
        run(path, n, warmup, new Histogram(3));
        Histogram latency = new Histogram(3);
        long t0 = System.nanoTime();
        long failed = run(path, n, count, latency);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Result(count / seconds, latency, failed);
    }

    private long run(LogPath path, int n, int total, Histogram latency) throws InterruptedException {
        Semaphore slots = new Semaphore(n);
        CountDownLatch all = new CountDownLatch(total);
        long[] failed = {0};
        byte[] value = new byte[valueBytes];
        for (int i = 0; i < total; i++) {
            slots.acquire();
            long start = System.nanoTime();
            byte[] key = ("key-" + i).getBytes(StandardCharsets.UTF_8);
            path.add(key, value, ok -> {
                synchronized (latency) {
                    latency.recordValue((System.nanoTime() - start) / 1000);
                    failed[0] += ok ? 0 : 1;
                }
                slots.release();
                all.countDown();
            });
        }
        all.await();
        synchronized (latency) {
            return failed[0];
        }
    }

    private static String row(String path, int m, int n, Result r) {
        return String.format(Locale.ROOT, "| %s | %d | %d | %,.0f | %d | %d |%s", path, m, n, r.rate,
                r.latency.getValueAtPercentile(50), r.latency.getValueAtPercentile(99),
                r.failed == 0 ? "" : " " + r.failed + " failed");
    }

    private record Result(double rate, Histogram latency, long failed) {
    }
}
