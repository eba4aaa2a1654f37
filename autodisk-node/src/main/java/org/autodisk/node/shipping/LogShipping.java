package org.autodisk.node.shipping;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.peer.PeerException;
import org.autodisk.node.store.LocalStore;

/**
 * {@link WriteAheadLog} that ships every record to all its log nodes. Records wait in LSN order; the head is
 * released as soon as as many log nodes as its multiplicity acknowledged it (or all still up, when fewer are up:
 * degraded), or failed once too few of them can still acknowledge it. A released group is applied at once on the
 * thread that saw the acknowledgement when the store can take it without waiting and nothing is queued before it;
 * else on the apply thread, in order.
 */
final class LogShipping implements WriteAheadLog {

    private final String selfId;
    private final List<ShipChannel> channels = new ArrayList<>();
    private final List<String> logNodes;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final ScheduledExecutorService applier;
    private final LocalStore store;
    private final Resync resync;
    private boolean resyncing;
    private long lastResyncAttempt;
    private long nextLsn;
    private long shipped;
    private int queuedApplies;
    private long inlineApplies;

    private static final long RESYNC_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private record Pending(LogRecord record, int multiplicity, Consumer<Applied> onApplied,
            Consumer<RuntimeException> onFailure) {
    }

    LogShipping(String selfId, List<String> logNodes, PeerChannel peers, long nextLsn, int maxBatch,
            LocalStore store, NodeMetrics metrics) {
        this.selfId = selfId;
        this.store = store;
        this.resync = new Resync(selfId, peers);
        this.nextLsn = nextLsn;
        this.logNodes = List.copyOf(logNodes);
        for (String logNode : logNodes) {
            channels.add(new ShipChannel(selfId, logNode, peers, maxBatch, this));
        }
        this.applier = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(selfId + "-apply")
                .daemon().factory());
        applier.scheduleWithFixedDelay(this::resyncIfDegraded, 1, 1, TimeUnit.SECONDS);
        register(metrics);
    }

    private void register(NodeMetrics metrics) {
        metrics.gauge(MetricNames.WAL_LAST_LSN, "the last LSN given to a change", this::lastLsn);
        metrics.functionCounter(MetricNames.WAL_RECORDS, "records shipped to the log nodes", this,
                LogShipping::shipped);
        metrics.functionCounter(MetricNames.WAL_BATCHES, "LOG_APPEND batches sent", this,
                w -> w.channels.stream().mapToLong(ShipChannel::batches).sum());
        metrics.gauge(MetricNames.WAL_DEGRADED, "1 while some log node receives no records, else 0",
                () -> degraded() ? 1 : 0);
        metrics.functionCounter(MetricNames.WAL_INLINE_APPLIES, "durable groups applied on the network thread",
                this, LogShipping::inlineApplies);
    }

    private synchronized long lastLsn() {
        return nextLsn - 1;
    }

    private synchronized double shipped() {
        return shipped;
    }

    private synchronized double inlineApplies() {
        return inlineApplies;
    }

    @Override
    public void log(int rangeId, long epoch, int op, byte[] key, byte[] value, int multiplicity,
            Consumer<Applied> onApplied, Consumer<RuntimeException> onFailure) {
        List<ShipChannel> targets = new ArrayList<>();
        LogRecord record;
        synchronized (this) {
            if (channels.stream().noneMatch(ShipChannel::up)) {
                channels.forEach(ShipChannel::retry);
            }
            record = new LogRecord(rangeId, epoch, nextLsn++, op, key, value);
            pending.add(new Pending(record, multiplicity, onApplied, onFailure));
            shipped++;
            channels.stream().filter(c -> c.up() || c.held()).forEach(targets::add);
            maybeResync();
            for (ShipChannel c : targets) {
                c.enqueue(record);
            }
        }
        if (targets.isEmpty()) {
            progress();
        }
    }

    /** A degraded node that receives no writes still restores its multiplicity once the log node is back. */
    private synchronized void resyncIfDegraded() {
        maybeResync();
    }

    private void maybeResync() {
        long now = System.nanoTime();
        if (resyncing || !degraded() || now - lastResyncAttempt < RESYNC_INTERVAL_NANOS) {
            return;
        }
        ShipChannel source = channels.stream().filter(ShipChannel::up).findFirst().orElse(null);
        ShipChannel target = channels.stream().filter(c -> !c.up()).findFirst().orElse(null);
        if (source == null || target == null) {
            return;
        }
        lastResyncAttempt = now;
        resyncing = true;
        target.hold();
        long through = nextLsn - 1;
        Thread.ofVirtual().name(selfId + "-resync").start(() -> finishResync(target, source, through));
    }

    private void finishResync(ShipChannel target, ShipChannel source, long through) {
        boolean ok = resync.run(target, source, through);
        synchronized (this) {
            resyncing = false;
            if (ok) {
                target.release(through);
            } else {
                target.abandon();
            }
        }
        progress();
    }

    /** Releases the head of the queue while its records are durable (or failed), in LSN order. */
    synchronized void progress() {
        List<Pending> ready = new ArrayList<>();
        while (!pending.isEmpty()) {
            Pending p = pending.peek();
            long lsn = p.record().lsn();
            long acked = channels.stream().filter(c -> c.ackedLsn() >= lsn).count();
            long possible = channels.stream().filter(c -> c.mayStillAck(lsn)).count();
            long up = channels.stream().filter(ShipChannel::up).count();
            long needed = Math.max(1, Math.min(p.multiplicity(), up));
            if (acked >= needed) {
                ready.add(pending.poll());
            } else if (acked + possible < needed || acked + possible == 0) {
                pending.poll();
                ready = submit(ready);
                RuntimeException e = unavailable();
                applier.execute(() -> p.onFailure().accept(e));
            } else {
                break;
            }
        }
        submit(ready);
    }

    /** Applies a released group here if nothing is queued before it and the store need not wait, else queues it. */
    private List<Pending> submit(List<Pending> ready) {
        if (!ready.isEmpty() && (queuedApplies > 0 || !apply(ready, false))) {
            queuedApplies++;
            applier.execute(() -> {
                try {
                    apply(ready, true);
                } finally {
                    appliedQueued();
                }
            });
        }
        return new ArrayList<>();
    }

    private synchronized void appliedQueued() {
        queuedApplies--;
    }

    /**
     * Every record that became durable together goes to the store in one write.
     *
     * @param wait whether the store may wait (a RocksDB write stall); if not and it would, nothing is applied
     * @return false if nothing was applied because the store would have had to wait
     */
    private boolean apply(List<Pending> group, boolean wait) {
        long durable = System.nanoTime();
        List<LogRecord> records = group.stream().map(Pending::record).toList();
        boolean[] changed;
        try {
            changed = wait ? store.applyAll(records) : store.tryApplyAll(records);
        } catch (RuntimeException e) {
            group.forEach(p -> p.onFailure().accept(e));
            return true;
        }
        if (changed == null) {
            return false;
        }
        if (!wait) {
            inlineApplies++;
        }
        for (int i = 0; i < group.size(); i++) {
            Pending p = group.get(i);
            p.onApplied().accept(new Applied(p.record(), changed[i], durable));
        }
        return true;
    }

    private PeerException unavailable() {
        String why = channels.stream().map(c -> c.logNode() + ": " + c.lastFailure())
                .collect(Collectors.joining("; "));
        return new PeerException(Status.NODE_UNAVAILABLE, "data node " + selfId + " cannot make the change durable: "
                + "no log node acknowledged it (" + why + ")");
    }

    /** What the log nodes may drop up to: the store's changes up to it survive a crash without the log. */
    long durableLsn() {
        return store.durableLsn();
    }

    @Override
    public List<String> logNodes() {
        return logNodes;
    }

    @Override
    public boolean degraded() {
        return channels.stream().filter(ShipChannel::up).count() < channels.size();
    }

    @Override
    public void close() {
        applier.shutdown();
        try {
            applier.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
