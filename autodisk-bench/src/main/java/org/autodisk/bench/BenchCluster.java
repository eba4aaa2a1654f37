package org.autodisk.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;

/**
 * One cluster of an experiment (its nodes started by a {@link BenchNodes}), with a client connected to d1 (the
 * entry node of every request), a key generator that makes every insert a new stream, and counts of what was
 * inserted.
 */
final class BenchCluster implements AutoCloseable {

    final String name;
    final int dataNodes;
    final int logNodes;
    final int multiplicity;
    final String store;
    final AutoDiskClient client;
    final LongAdder acked = new LongAdder();
    final LongAdder errors = new LongAdder();
    final double startedMs;
    final Set<String> errorMessages = ConcurrentHashMap.newKeySet();

    private final BenchNodes.Nodes nodes;
    private final List<RangeStatus> ranges;
    private final List<KeysInRange> keys = new ArrayList<>();
    private final AtomicLong next = new AtomicLong();

    private BenchCluster(Spec spec, BenchNodes.Nodes nodes, double startedMs) {
        this.name = spec.name();
        this.dataNodes = spec.dataNodes();
        this.logNodes = spec.logNodes();
        this.multiplicity = spec.multiplicity();
        this.store = spec.store();
        this.nodes = nodes;
        this.startedMs = startedMs;
        this.client = AutoDiskClient.builder().seeds(nodes.entryAddress())
                .requestTimeout(Duration.ofSeconds(60)).build();
        this.ranges = client.status().ranges();
        ranges.forEach(r -> keys.add(new KeysInRange(r)));
    }

    /**
     * What to start.
     *
     * @param name         name in the report
     * @param dataNodes    data nodes
     * @param logNodes     log nodes
     * @param multiplicity wal.multiplicity
     * @param store        store.engine
     */
    record Spec(String name, int dataNodes, int logNodes, int multiplicity, String store) {
    }

    static BenchCluster start(BenchNodes launcher, Spec spec, String label, String extraYaml, double startedMs)
            throws IOException {
        String yaml = "store.engine: " + spec.store() + "\n" + extraYaml;
        BenchNodes.Nodes n = launcher.start(label, spec.dataNodes(), spec.logNodes(), spec.multiplicity(), yaml);
        try {
            return new BenchCluster(spec, n, startedMs);
        } catch (RuntimeException e) {
            n.close();
            throw e;
        }
    }

    /** Keeps the first few distinct failure messages for the report. */
    void failed(Throwable e) {
        Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                ? e.getCause() : e;
        if (errorMessages.size() < 5) {
            errorMessages.add(cause.getClass().getSimpleName() + ": " + cause.getMessage());
        }
    }

    /** A new key in the range {@code node} owns. */
    byte[] keyOwnedBy(String node) {
        for (int i = 0; i < ranges.size(); i++) {
            if (ranges.get(i).owner().equals(node)) {
                return keys.get(i).key(next.getAndIncrement());
            }
        }
        throw new IllegalStateException(node + " owns no range of cluster " + name);
    }

    /** A new key in the next range, round robin: with two data nodes every other insert is forwarded. */
    byte[] keyAnyRange() {
        long n = next.getAndIncrement();
        return keys.get((int) (n % keys.size())).key(n);
    }

    /** The id of the node that owns the second range (the forwarding target), or {@code null} with one range. */
    String otherOwner() {
        return ranges.stream().map(RangeStatus::owner).filter(o -> !o.equals("d1")).findFirst().orElse(null);
    }

    /**
     * Waits until the log nodes have caught every backup copy up (they do when idle), so the next measurement
     * does not share the machine with the previous one's background work.
     */
    void settle(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        TimeUnit.MILLISECONDS.sleep(50);
        while (System.nanoTime() < deadline) {
            boolean caughtUp = client.status().ranges().stream()
                    .allMatch(r -> r.backup() == null || r.logNodes().isEmpty() || r.backupLag() <= 0);
            if (caughtUp) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    InsertResults.ClusterRow row(double finishedMs) {
        ClusterStatus s = client.status();
        long streams = 0;
        long records = 0;
        double fsyncs = 0;
        for (NodeStatus n : s.nodes()) {
            streams += n.role().equals("data") ? n.streamCount() : 0;
            records += n.metrics().getOrDefault(MetricNames.LEDGER_ENTRIES, 0.0).longValue();
            fsyncs += n.metrics().getOrDefault(MetricNames.LEDGER_SYNCS, 0.0);
        }
        return new InsertResults.ClusterRow(name, dataNodes, logNodes, multiplicity, store, acked.sum(),
                errors.sum(), streams, records, fsyncs == 0 ? 0 : records / fsyncs,
                List.copyOf(errorMessages), new InsertResults.Span(startedMs, finishedMs));
    }

    @Override
    public void close() {
        client.close();
        nodes.close();
    }
}
