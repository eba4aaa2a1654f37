package org.autodisk.node.backup;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.autodisk.node.ledger.LedgerStore;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A log node's truncation of its part of the ledgers: below what every holder of a ledger holds durably — its writer,
 * the owners of the ranges it overlaps, their backups and the targets of their migrations (a target catches up from
 * its copy's positions on; a backup fill's target in its backup copy) — and a closed ledger they hold wholly is
 * deleted. At most once a second, in two steps: the holders named by this node's view are asked first; then the
 * metadata group's leader is asked how far it applied the commits, and the holders are taken from a view at least
 * that new, with the answers given before that read. So a holder the view lacked — a backup fill or a migration
 * committed before an answer, which the answering store may have moved past since — is counted, however far behind
 * this node's view or the answering node's was (a node just restarted answers under an old version). Nothing of a
 * ledger overlapping a range its promoted backup takes over is dropped ({@link #keptWhole}).
 */
final class LedgerTruncation {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerTruncation.class);
    private static final long PASS_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** How far the holders of a ledger hold it, asked now or as they last answered. */
    interface Answers {

        /**
         * How far a data node's own store holds a ledger.
         *
         * @param node the data node
         * @param l    the ledger
         * @param ask  true to ask when due, false for its last answer only
         * @return the answer
         */
        LedgerCopies.Held store(String node, LedgerInfo l, boolean ask);

        /**
         * How far a data node's backup copy holds a ledger.
         *
         * @param node the data node
         * @param l    the ledger
         * @param ask  true to ask when due, false for its last answer only
         * @return the answer
         */
        LedgerCopies.Held backup(String node, LedgerInfo l, boolean ask);
    }

    /** The metadata as far as the group committed it when asked. */
    interface Committed {

        /**
         * Returns a view of the metadata with every change committed before the call.
         *
         * @return the view, or {@code null} when the group cannot say now (no leader)
         */
        MetaState view();
    }

    private final String self;
    private final LedgerStore store;
    private final Answers answers;
    private final Committed committed;
    private final LedgerDeletions deletions;
    private final LongSupplier clock;
    private final Map<Long, Long> truncated = new ConcurrentHashMap<>();
    private long lastPass;
    private boolean passed;

    LedgerTruncation(String self, LedgerStore store, Answers answers, Committed committed, LedgerDeletions deletions,
            LongSupplier clock) {
        this.self = self;
        this.store = store;
        this.answers = answers;
        this.committed = committed;
        this.deletions = deletions;
        this.clock = clock;
    }

    /**
     * Truncates and deletes what nobody needs any more, a second after the last pass ended at the earliest (a pass
     * may wait seconds for the metadata's leader; the catch-up ticks between passes).
     *
     * @param view this node's view of the metadata now
     */
    void pass(MetaState view) {
        if (passed && clock.getAsLong() - lastPass < PASS_INTERVAL_NANOS) {
            return;
        }
        passed = true;
        try {
            decide(view);
        } finally {
            lastPass = clock.getAsLong();
        }
    }

    private void decide(MetaState view) {
        truncated.keySet().removeIf(id -> view.ledger(id) == null);
        List<LedgerInfo> mine = view.ledgers().stream().filter(l -> truncatable(view, l)).toList();
        if (mine.isEmpty()) {
            return;
        }
        mine.forEach(l -> guarded(l, () -> holders(view, l, true))); // only asks: read after the query
        MetaState after = committed.view();
        if (after == null) {
            LOG.debug("{}: truncation waits: the metadata group did not say how far it committed", self);
            return;
        }
        after.ledgers().forEach(l -> guarded(l, () -> truncate(after, l)));
    }

    private void guarded(LedgerInfo l, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            LOG.debug("{}: truncation of ledger {} deferred: {}", self, l.id(), e.getMessage());
        }
    }

    private boolean truncatable(MetaState s, LedgerInfo l) {
        return l.fragments().stream().anyMatch(f -> f.ensemble().contains(self)) && !keptWhole(s, l);
    }

    private void truncate(MetaState s, LedgerInfo l) {
        if (!truncatable(s, l)) {
            return;
        }
        long held = Math.max(0, truncated.getOrDefault(l.id(), 0L) - 1);
        if (l.state() == LedgerState.CLOSED && held >= l.lastEntry()) {
            deletions.consider(l, held);
            return;
        }
        long below = holders(s, l, false).dropBelow(s.version());
        if (below == 0) {
            LOG.debug("{}: truncation of ledger {} waits for a newer view of the metadata than v{}", self, l.id(),
                    s.version());
        } else if (below > truncated.getOrDefault(l.id(), 0L)) {
            store.truncate(l.id(), below);
            truncated.put(l.id(), below);
        }
    }

    /** What the holders of a ledger, as a view of the metadata names them, answered (or answer now, if asked). */
    private Holders holders(MetaState s, LedgerInfo l, boolean ask) {
        Holders h = new Holders();
        h.add(answers.store(l.writer(), l, ask));
        for (RangeDescriptor r : s.ranges()) {
            if (!l.overlaps(r.low(), r.high())) {
                continue;
            }
            if (!r.owner().equals(l.writer())) {
                h.add(answers.store(r.owner(), l, ask));
            }
            MigrationInfo moving = s.migrationOf(r.id());
            if (moving != null && moving.backup()) {
                h.add(answers.backup(moving.target(), l, ask));
            } else if (moving != null && moving.phase() != MigrationPhase.CLEANING_UP) {
                h.add(answers.store(moving.target(), l, ask));
            }
            for (String backup : r.backups()) {
                h.add(answers.backup(backup, l, ask));
            }
        }
        return h;
    }

    /** What the holders of a ledger answered: the least they hold durably, and the newest view they answered in. */
    static final class Holders {
        private long keep = Long.MAX_VALUE;
        private long newest;

        void add(LedgerCopies.Held held) {
            keep = Math.min(keep, held.durable());
            newest = Math.max(newest, held.version());
        }

        /**
         * Where the ledger may be dropped below: after the least any holder holds durably; nowhere (0) if an answer
         * was given under a newer view of the metadata than this log node's, which may lack a migration or a backup
         * fill whose snapshot the answering store has moved past since (the next pass decides, with a newer view).
         *
         * @param viewVersion the version of the metadata the holders were chosen from
         * @return the first entry kept, or 0 to keep everything for now
         */
        long dropBelow(long viewVersion) {
            return newest > viewVersion ? 0 : keep + 1;
        }
    }

    /**
     * Tells whether a ledger is kept whole whatever its holders report: it overlaps a range promoted to its backup
     * and not serving yet. That owner's store does not count as a holder: a takeover run again after a crash
     * replaces the store's span with the backup copy caught up from the ledgers (the run the crash cut short may
     * have caught it up only in memory).
     *
     * @param s the metadata
     * @param l the ledger
     * @return whether nothing of it may be truncated or deleted now
     */
    static boolean keptWhole(MetaState s, LedgerInfo l) {
        return s.ranges().stream().anyMatch(r -> r.state() == RangeState.RECOVERING && l.overlaps(r.low(), r.high()));
    }
}
