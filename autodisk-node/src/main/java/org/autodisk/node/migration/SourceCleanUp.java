package org.autodisk.node.migration;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source's clean-up after a cutover: once its ledgers of the range are closed and applied here (or a while has
 * passed: entries the new owner recovered are never applied here) and reads in flight had time to finish, it
 * deletes its copy of the range, compacts the deleted span (so that the disk space shows free) and ends the migration;
 * never while this node still has a writer of the range (after a restart it follows the metadata's history, and a
 * slot of an owner it was may still replay into the store).
 */
final class SourceCleanUp {

    private static final Logger LOG = LoggerFactory.getLogger(SourceCleanUp.class);
    /** Reads that started before the cutover finish within this (they answer or time out first). */
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** After this, entries of a closed ledger not applied here are taken as recovered by the new owner. */
    private static final long APPLY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Tries of the compaction of a deleted span (each waits a minute at most for the snapshots that pin it). */
    private static final int RECLAIM_TRIES = 5;
    private static final Duration RECLAIM_RETRY = Duration.ofSeconds(10);

    private final MigrationContext mc;
    private final ScheduledExecutorService timer;
    private final Map<Long, Long> seen = new ConcurrentHashMap<>();
    private final Set<Long> ending = ConcurrentHashMap.newKeySet();
    /** Migrations whose deleted span was compacted (or given up on): an end tried again does not compact again. */
    private final Set<Long> reclaimed = ConcurrentHashMap.newKeySet();
    /** Streams deleted per migration, over the tries (a deletion tried again finds none). */
    private final Map<Long, Long> deleted = new ConcurrentHashMap<>();

    SourceCleanUp(MigrationContext mc, ScheduledExecutorService timer) {
        this.mc = mc;
        this.timer = timer;
    }

    /** Called on every upkeep tick for a migration of which this node is the source and which cut over. */
    void consider(MetaState s, MigrationInfo m) {
        RangeDescriptor r = s.range(m.rangeId());
        if (r == null || r.owner().equals(mc.self()) || ending.contains(m.id())) {
            return;
        }
        long now = System.nanoTime();
        long first = seen.computeIfAbsent(m.id(), id -> now);
        boolean settled = s.ledgersOf(r).stream().filter(l -> l.writer().equals(mc.self())).allMatch(l ->
                l.state() == LedgerState.CLOSED && (applied(l) || now - first >= APPLY_WAIT_NANOS));
        if (now - first < GRACE_NANOS || !settled || mc.wal().hasWriterOver(r)) {
            return; // a writer of the range here (a slot of a stale view while restarting) may still write its span
        }
        ending.add(m.id());
        long n;
        try {
            n = mc.store().deleteRange(r.low(), r.high());
            mc.store().makeDurable(); // with RocksDB's WAL off the deletion would be lost to a crash after the end
        } catch (RuntimeException e) { // a full disk, say: the deletion is tried again (it is idempotent)
            LOG.warn("{}: migration {}: deleting this node's copy of range {} failed ({}); trying again", mc.self(),
                    m.id(), r.id(), e.toString());
            timer.schedule(() -> ending.remove(m.id()), 1, TimeUnit.SECONDS);
            return;
        }
        deleted.merge(m.id(), n, Long::sum);
        LOG.info("{}: migration {}: range {} {} is served by {}; deleted the {} streams this node held of it",
                mc.self(), m.id(), r.id(), r.span(), r.owner(), n);
        if (reclaimed.contains(m.id())) {
            end(m); // the end is tried again: the span was compacted already
            return;
        }
        // off the upkeep thread: a compaction may take seconds, and waits for the snapshots that pin the span
        Thread.ofVirtual().name(mc.self() + "-migration-" + m.id() + "-reclaim").start(() -> {
            reclaim(m, r);
            reclaimed.add(m.id());
            end(m);
        });
    }

    /**
     * Compacts the deleted span before the migration ends, so that the free space the balance rules read next counts
     * it (they would otherwise see the disk as full as before and move another range off). A failure is tried again
     * {@link #RECLAIM_TRIES} times; after that the space comes back with RocksDB's own compactions.
     */
    private void reclaim(MigrationInfo m, RangeDescriptor r) {
        for (int attempt = 1; attempt <= RECLAIM_TRIES; attempt++) {
            long t = System.nanoTime();
            try {
                mc.store().reclaim(r.low(), r.high());
                LOG.info("{}: migration {}: compacted the span of range {} in {} ms: its disk space is free",
                        mc.self(), m.id(), r.id(), (System.nanoTime() - t) / 1_000_000);
                return;
            } catch (RuntimeException e) {
                LOG.warn("{}: migration {}: compacting the span of range {} failed ({}); {}", mc.self(), m.id(),
                        r.id(), e.toString(), attempt < RECLAIM_TRIES ? "trying again" : "giving up: its space comes "
                                + "back with the store's own compactions, and until then the disk looks as full");
            }
            if (attempt < RECLAIM_TRIES && !pause(RECLAIM_RETRY)) {
                return;
            }
        }
    }

    private static boolean pause(Duration d) {
        try {
            Thread.sleep(d);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void end(MigrationInfo m) {
        Duration timeout = mc.settings().metadataTimeout();
        mc.metadata().submit(new MetaCommand.EndMigration(m.id(), false, "finished: " + mc.self() + " deleted its "
                + deleted.getOrDefault(m.id(), 0L) + " streams"), timeout).whenComplete((res, err) -> {
                    if ((err != null || !res.applied()) && mc.metadata().current().migration(m.id()) != null) {
                        LOG.info("{}: migration {}: ending it failed ({}); trying again", mc.self(), m.id(),
                                err != null ? err.toString() : res.refusal());
                        timer.schedule(() -> ending.remove(m.id()), 1, TimeUnit.SECONDS);
                    } else { // ended (also when the answer was lost but the end committed)
                        seen.remove(m.id());
                        reclaimed.remove(m.id());
                        deleted.remove(m.id());
                        ending.remove(m.id());
                    }
                });
    }

    private boolean applied(LedgerInfo l) {
        return mc.store().appliedEntry(l.id()) >= l.lastEntry();
    }
}
