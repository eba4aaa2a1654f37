package org.autodisk.node.migration;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.node.store.LocalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data node's part in migrations, driven by the committed metadata: as a source it serves its snapshot's chunks
 * and, once the range cut over, deletes its copy and ends the migration; as a target it runs each migration's copy,
 * catch-up and cutover on a thread of its own (at most {@code migration.max-concurrent} at once), stops it when the
 * migration is paused or aborted, starts it again when resumed or after a failure, and drops the partial copy of
 * an aborted one. As target it raises the rules' migration events (started, progress, finished, failed).
 */
public final class Migrations implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long RETRY_MAX_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final MigrationContext mc;
    private final SourceSnapshots snapshots;
    private final WriteAheadLog wal;
    private final SourceCleanUp cleanUp;
    private final Map<Long, Running> runs = new ConcurrentHashMap<>();
    /** The migrations whose last copy run failed here: when, and how many runs in a row failed. */
    private final Map<Long, long[]> failedAt = new ConcurrentHashMap<>();
    /** The migrations this node copies as target, with their spans, to drop the copy of one that is aborted. */
    private final Map<Long, Targeted> targeted = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final MigrationEvents events;
    private final HostCopies hostCopies;
    private final ReplacedBackups replacedBackups;
    private final AtomicBoolean tickQueued = new AtomicBoolean();

    /** A copy run of a migration of a range to this node; {@code ended} completes once its thread is done. */
    private record Running(TargetRun run, long rangeId, CompletableFuture<Void> ended) {
    }

    /**
     * Creates the node's migration driver; {@link #start} runs it.
     *
     * @param ctx      the node
     * @param store    its store
     * @param backups  its backup copy (the target of a backup fill)
     * @param wal      the log of the ranges it owns (a source copies a range only once its log is replayed)
     * @param settings the migration settings
     */
    public Migrations(NodeContext ctx, LocalStore store, BackupStores backups, WriteAheadLog wal,
            MigrationSettings settings) {
        this.mc = new MigrationContext(ctx.nodeId(), ctx.metadata(), ctx.peers(), LedgerPeers.over(ctx.peers()),
                store, backups, settings, wal, new MigrationTimes());
        mc.times().register(ctx.metrics(), wal);
        this.snapshots = new SourceSnapshots(ctx.nodeId(), store, settings.chunkBytes());
        this.wal = wal;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(ctx.nodeId()
                + "-migrations").daemon().factory());
        this.cleanUp = new SourceCleanUp(mc, timer);
        this.events = new MigrationEvents(ctx.nodeId(), ctx.rules()::observe);
        this.hostCopies = new HostCopies(mc);
        this.replacedBackups = new ReplacedBackups(mc, task -> Thread.ofVirtual().name(ctx.nodeId()
                + "-backup-drop").start(task));
    }

    /**
     * Returns the handler of MIGRATION_READ (this node as a source).
     *
     * @return the handler
     */
    public OperationHandler readHandler() {
        return new MigrationReadHandler(mc.self(), mc.metadata(), snapshots, wal, mc.settings().metadataTimeout());
    }

    /**
     * Returns the handler of MIGRATION_WRITE (this node as the target of a host-driven migration).
     *
     * @return the handler
     */
    public OperationHandler hostWriteHandler() {
        return hostCopies::handle;
    }

    /**
     * Follows the metadata: at once when it changes (a new migration's target starts copying, a source that was cut
     * over starts its clean-up, without waiting for the next round), and every {@code periodMs} (retries, the
     * clean-up's grace).
     *
     * @param periodMs the period
     */
    public void start(long periodMs) {
        timer.scheduleWithFixedDelay(this::tick, periodMs, periodMs, TimeUnit.MILLISECONDS);
        mc.metadata().subscribe(s -> tickSoon());
        mc.metadata().subscribeCommands(replacedBackups::applied);
    }

    /** Runs a round on the driver's thread soon, once however many changes come meanwhile. */
    private void tickSoon() {
        if (!tickQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            timer.execute(() -> {
                tickQueued.set(false);
                tick();
            });
        } catch (RejectedExecutionException e) {
            tickQueued.set(false); // stopping
        }
    }

    void tick() {
        try {
            MetaState s = mc.metadata().current();
            if (!s.bootstrapped()) {
                return;
            }
            snapshots.tidy(s);
            events.observe(s);
            hostCopies.tidy(s);
            stopRunsNoLongerWanted(s);
            dropAbortedCopies(s);
            for (MigrationInfo m : s.migrations()) {
                try {
                    if (m.target().equals(mc.self())) {
                        maybeRun(s, m);
                    } else if (m.source().equals(mc.self()) && m.phase() == MigrationPhase.CLEANING_UP) {
                        cleanUp.consider(s, m);
                    }
                } catch (RuntimeException e) { // one migration's failure does not hold the others up
                    LOG.warn("{}: upkeep of migration {} failed: {}", mc.self(), m.id(), e.toString());
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("{}: migration upkeep failed: {}", mc.self(), e.toString());
        }
    }

    private void maybeRun(MetaState s, MigrationInfo m) {
        if (m.phase() == MigrationPhase.CLEANING_UP || m.paused() || runs.containsKey(m.id())
                || runs.size() >= mc.settings().maxConcurrent()) {
            return;
        }
        long[] failed = failedAt.get(m.id());
        if (failed != null && System.nanoTime() - failed[0] < retryWaitNanos((int) failed[1]) || copyingStill(s, m)) {
            return;
        }
        targeted.putIfAbsent(m.id(), new Targeted(m, s.range(m.rangeId())));
        Running run = new Running(new TargetRun(m.id(), mc, hostCopies), m.rangeId(), new CompletableFuture<>());
        runs.put(m.id(), run);
        Thread.ofPlatform().name(mc.self() + "-migration-" + m.id()).daemon().start(() -> runToEnd(m.id(), run));
    }

    /**
     * Returns how long a migration whose copy runs failed this many times in a row waits before the next run: 1 s,
     * doubling up to 10 s, so that a cause that lasts (the source's snapshot behind this node's store, the source
     * down) costs a claim and a WARN every 10 s, not every second.
     *
     * @param failures the failed runs in a row, at least 1
     * @return the wait in nanoseconds
     */
    static long retryWaitNanos(int failures) {
        return Math.min(RETRY_MAX_NANOS, RETRY_NANOS << Math.min(Math.max(0, failures - 1), 4));
    }

    /**
     * Tells whether another migration's copy into the span is still running here (stopped after an abort, say, and
     * not ended yet) or not dropped yet: a new copy starts after that, so that neither a late write of the old copy
     * nor the drop of it lands on the new one.
     */
    private boolean copyingStill(MetaState s, MigrationInfo m) {
        return copyingStill(targeted, m.id(), s.range(m.rangeId()));
    }

    /**
     * Tells whether a copy this node made or makes as target, other than a migration's, overlaps a span.
     *
     * @param targeted the copies this node made or makes as target, by migration, until dropped or kept
     * @param id       the migration
     * @param span     the range it copies, or {@code null}
     * @return whether another one overlaps it
     */
    static boolean copyingStill(Map<Long, Targeted> targeted, long id, RangeDescriptor span) {
        return span != null && targeted.entrySet().stream().anyMatch(e -> e.getKey() != id
                && overlaps(e.getValue().span(), span));
    }

    private void runToEnd(long id, Running run) {
        try {
            run.run().run();
            failedAt.remove(id);
        } catch (RuntimeException e) {
            failedAt.merge(id, new long[] {System.nanoTime(), 1}, (was, now) -> new long[] {now[0], was[1] + 1});
        } finally {
            runs.remove(id, run);
            run.ended().complete(null);
        }
    }

    /**
     * Stops this node's copies into a range and waits until their last write is done: a backup promoted to the
     * range's owner takes it over, and nothing of a move the promotion ended may be written after that. A copy that
     * starts later finds its migration gone from the metadata and writes nothing; a host's write comes after a
     * barrier and finds it gone too.
     *
     * @param rangeId the range
     * @param timeout how long to wait
     * @return whether they stopped within the time
     * @throws InterruptedException if interrupted
     */
    public boolean stopCopiesInto(long rangeId, Duration timeout) throws InterruptedException {
        hostCopies.barrier();
        CompletableFuture<?>[] ends = runs.values().stream().filter(r -> r.rangeId() == rangeId)
                .peek(r -> r.run().stop()).map(Running::ended).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(ends).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            LOG.info("{}: a copy into range {} did not stop within {} ms", mc.self(), rangeId, timeout.toMillis());
            return false;
        } catch (ExecutionException e) {
            return true; // never: they complete normally
        }
    }

    private void stopRunsNoLongerWanted(MetaState s) {
        runs.forEach((id, run) -> {
            MigrationInfo m = s.migration(id);
            if (m == null || m.paused() || m.phase() == MigrationPhase.CLEANING_UP) {
                run.run().stop();
            }
        });
    }

    /**
     * Drops the copy of a migration that ended without making this node the range's owner (a move) or backup (a
     * backup fill): it was aborted.
     */
    private void dropAbortedCopies(MetaState s) {
        for (Map.Entry<Long, Targeted> e : Map.copyOf(targeted).entrySet()) {
            if (s.migration(e.getKey()) != null || runs.containsKey(e.getKey())) {
                continue;
            }
            Targeted t = e.getValue();
            RangeDescriptor span = t.span();
            if (!keptHere(s.ranges(), t.migration().backup(), span, mc.self())) {
                LocalStore into = mc.into(t.migration());
                long n = into.deleteRange(span.low(), span.high());
                into.makeDurable();
                LOG.info("{}: migration {} was aborted: dropped the {} streams copied of {}{}", mc.self(), e.getKey(),
                        n, span.span(), t.migration().backup() ? " into the backup copy" : "");
            }
            targeted.remove(e.getKey());
        }
    }

    /**
     * Tells whether the copy of a migration that ended is kept here: a move's when this node owns the range now, a
     * backup fill's when it backs the range up now or owns it (a promotion of the filled backup: the promotion takes
     * the range over from that copy, and drops it itself once done). Dropping a promoted fill's copy while the
     * takeover read it lost the range's streams (a fault run, 2026-11-28).
     *
     * @param ranges     the ranges now
     * @param backupFill whether the migration was a backup fill
     * @param span       the span it copied
     * @param self       this node
     * @return whether the copy stays
     */
    static boolean keptHere(List<RangeDescriptor> ranges, boolean backupFill, RangeDescriptor span, String self) {
        return ranges.stream().anyMatch(r -> overlaps(r, span) && (r.owner().equals(self)
                || backupFill && r.backups().contains(self)));
    }

    /** A migration this node copies as target, and the span it copies. */
    record Targeted(MigrationInfo migration, RangeDescriptor span) {
    }

    /** Whether two ranges' spans overlap. */
    static boolean overlaps(RangeDescriptor r, RangeDescriptor span) {
        return r.contains(span.low()) || span.contains(r.low());
    }

    @Override
    public void close() {
        timer.shutdownNow();
        runs.values().forEach(r -> r.run().stop());
        snapshots.closeAll();
    }
}
