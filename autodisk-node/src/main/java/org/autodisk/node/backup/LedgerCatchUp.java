package org.autodisk.node.backup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.metrics.NodeMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log node's catch-up of backups from ledgers (seed 004, Rule_5). For every range with a backup, the range's
 * ledgers are applied to the backup copy in id order, each only up to what is settled — a closed ledger's last
 * entry, an open one's last acknowledged entry (as its writer reports it here, or as far as the owner applied it) —
 * and a later ledger only once the earlier one is closed and wholly applied. A ledger is copied by the first log node
 * of its last fragment; the others follow how far the backup is, and copy it in its place when the backup has not
 * moved on for a while. The backup answers how far it holds each
 * ledger, so a copy that lost its unflushed part is resent from there. Every log node then truncates its part of
 * each ledger below what the owner and the backups hold durably, and a closed ledger they hold wholly is deleted
 * from the metadata ({@link LedgerTruncation}, {@link LedgerDeletions}).
 */
public final class LedgerCatchUp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerCatchUp.class);
    private static final long ASK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long FORGET_ASKED_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** How long the backup may not move on in a ledger before another log node of it copies it. */
    private static final long STAND_IN_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long a truncation pass waits to learn how far the metadata committed, and to apply that far. */
    private static final Duration COMMITTED_WAIT = Duration.ofSeconds(2);
    private static final long WAIT_MS = COMMITTED_WAIT.toMillis() + 500;

    private final String self;
    private final LogNodeLedgers ledgers;
    private final LedgerCopies copies;
    private final LedgerDeletions deletions;
    private final CatchUpPolicy policy;
    private final NodeMetrics metrics;
    private final Map<String, Long> lags = new ConcurrentHashMap<>();
    private final Metadata metadata;
    private final LedgerTruncation truncation;
    /** Per ledger another log node copies: how far the backup held it, since when, and 1 once this one stood in. */
    private final Map<Long, long[]> stalled = new ConcurrentHashMap<>();
    /** When each holder was last asked about each ledger; entries not renewed for a minute are forgotten. */
    private final Map<String, Long> asked = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private long lastAppend = System.nanoTime();
    private long entriesSeen;

    /**
     * Creates the catch-up; {@link #start} schedules it.
     *
     * @param self    this log node
     * @param ledgers its ledgers
     * @param copies  the backups' and owners' stores as the data nodes report them
     * @param metadata the metadata: what is committed, and where ledgers nobody needs are deleted
     * @param timeout  how long a metadata change may take
     * @param policy  decides when a range's backup is caught up (the rules)
     * @param metrics where the backup lag of each owner's ranges it catches up is registered
     */
    public LedgerCatchUp(String self, LogNodeLedgers ledgers, LedgerCopies copies, Metadata metadata,
            Duration timeout, CatchUpPolicy policy, NodeMetrics metrics) {
        this.self = self;
        this.ledgers = ledgers;
        this.copies = copies;
        this.metadata = metadata;
        this.deletions = new LedgerDeletions(self, metadata, timeout);
        this.truncation = new LedgerTruncation(self, ledgers.store(), new LedgerTruncation.Answers() {
            @Override
            public LedgerCopies.Held store(String node, LedgerInfo l, boolean ask) {
                return storeAnswer(node, l, ask);
            }

            @Override
            public LedgerCopies.Held backup(String node, LedgerInfo l, boolean ask) {
                return backupAnswer(node, l, ask);
            }
        }, this::committedView, deletions, System::nanoTime);
        this.policy = policy;
        this.metrics = metrics;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(self + "-ledger-catch-up")
                .daemon().factory());
    }

    /**
     * Runs the catch-up every {@code periodMs}.
     *
     * @param periodMs the period
     */
    public void start(long periodMs) {
        timer.scheduleWithFixedDelay(this::tick, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    void tick() {
        long entries = ledgers.store().stats().entries();
        if (entries != entriesSeen) {
            entriesSeen = entries;
            lastAppend = System.nanoTime();
        }
        MetaState s = metadata.current();
        Map<String, Long> lagNow = new HashMap<>();
        for (RangeDescriptor r : s.ranges()) {
            try {
                catchUp(s, r, lagNow);
            } catch (RuntimeException e) {
                LOG.debug("{}: catch-up of range {} deferred: {}", self, r.id(), e.getMessage());
            }
        }
        publish(lagNow);
        deletions.forgetGone(s);
        stalled.keySet().removeIf(id -> s.ledger(id) == null);
        long now = System.nanoTime();
        asked.values().removeIf(at -> now - at > FORGET_ASKED_NANOS); // of ledgers gone, or holders that left
        truncation.pass(metadata.current()); // the catch-up above may have taken seconds: start from the newest view
    }

    /** A view of the metadata with every change committed when called, or {@code null} if none comes in time. */
    private MetaState committedView() {
        try {
            long version = metadata.committedVersion(COMMITTED_WAIT).get(WAIT_MS, TimeUnit.MILLISECONDS);
            return metadata.awaitVersion(version, COMMITTED_WAIT).get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("{}: no view of what the metadata committed: {}", self, e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private LedgerCopies.Held storeAnswer(String node, LedgerInfo l, boolean ask) {
        return ask ? askedStore(node, l) : copies.owner(node, l.id());
    }

    private LedgerCopies.Held backupAnswer(String node, LedgerInfo l, boolean ask) {
        if (ask) {
            askedBackup(node, l);
        }
        return copies.backup(node, l.id());
    }

    /** The backup lag per owner, in entries, of the ledgers this log node copies (shown by {@code status}). */
    private void publish(Map<String, Long> lagNow) {
        lags.replaceAll((owner, lag) -> lagNow.getOrDefault(owner, 0L));
        lagNow.forEach((owner, lag) -> {
            if (lags.put(owner, lag) == null) {
                metrics.streamGauge(MetricNames.BACKUP_LAG, "ledger entries of the owner's ranges its backup lacks",
                        owner, () -> lags.getOrDefault(owner, 0L));
            }
        });
    }

    private void catchUp(MetaState s, RangeDescriptor r, Map<String, Long> lagNow) {
        String backup = r.backup();
        if (backup == null) {
            return;
        }
        List<LedgerInfo> ls = new ArrayList<>(s.ledgersOf(r));
        ls.sort(Comparator.comparingLong(LedgerInfo::id));
        for (LedgerInfo l : ls) {
            boolean first = l.lastFragment().ensemble().get(0).equals(self);
            long applied = first ? firstsView(backup, l) : askedBackup(backup, l);
            boolean mine = first || standsIn(l, backup, applied);
            long bound = settled(l, mine);
            if (mine && applied < bound && policy.catchUpNow("range " + r.id(), backup, bound - applied, idleMs())) {
                applied = copy(backup, l, applied + 1, bound);
            }
            if (mine) {
                lagNow.merge(r.owner(), Math.max(0, bound - applied), Long::sum);
            }
            if (l.state() != LedgerState.CLOSED || applied < l.lastEntry()) {
                return;
            }
        }
    }

    /**
     * Tells whether this log node copies a ledger in place of the first log node of its last fragment: it holds the
     * ledger's last fragment, and the backup has not moved on in it for {@link #STAND_IN_NANOS} while it lacks some
     * of it (that log node is down or cannot reach the backup). Two copiers are safe: the backup applies only a page
     * that continues what it holds.
     */
    private boolean standsIn(LedgerInfo l, String backup, long applied) {
        if (!l.lastFragment().ensemble().contains(self) || l.state() == LedgerState.CLOSED && applied >= l.lastEntry()
                || l.state() != LedgerState.CLOSED && applied >= ledgers.confirmed(l.id())) {
            stalled.remove(l.id());
            return false;
        }
        long now = System.nanoTime();
        long[] seen = stalled.get(l.id());
        if (seen == null || seen[0] != applied) {
            stalled.put(l.id(), new long[] {applied, now});
            return false;
        }
        boolean standIn = now - seen[1] >= STAND_IN_NANOS;
        if (standIn && seen.length == 2) {
            LOG.info("{}: copying ledger {} to backup {} in place of {}: the backup has held it through entry {} for "
                    + "{} s", self, l.id(), backup, l.lastFragment().ensemble().get(0), applied,
                    TimeUnit.NANOSECONDS.toSeconds(now - seen[1]));
            stalled.put(l.id(), new long[] {applied, seen[1], 1});
        }
        return standIn;
    }

    /** What of a ledger may go to a backup: all of a closed one; of an open one, what is known acknowledged. */
    private long settled(LedgerInfo l, boolean mine) {
        if (l.state() == LedgerState.CLOSED) {
            return l.lastEntry();
        }
        long confirmed = ledgers.confirmed(l.id());
        return mine ? Math.max(confirmed, askedOwner(l).applied()) : confirmed;
    }

    private long idleMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastAppend);
    }

    /** Sends entries {@code from..to} page by page; returns how far the backup then holds the ledger. */
    private long copy(String backup, LedgerInfo l, long from, long to) {
        long next = from;
        long applied = from - 1;
        while (next <= to) {
            List<LedgerEntry> page = copies.page(l, next, to);
            applied = copies.apply(backup, l.id(), next, page).applied();
            if (applied < next) {
                if (due("log " + backup + "/" + l.id(), LOG_INTERVAL_NANOS)) { // the same every tick while views lag
                    LOG.info("{}: backup {} holds ledger {} through entry {} only; resending from there", self,
                            backup, l.id(), applied);
                }
                copies.forgetBackup(backup); // its earlier ledgers are asked again before any entry of this one
                return applied;
            }
            next = applied + 1;
        }
        return applied;
    }

    /**
     * How far the backup holds a ledger this log node copies: as it last answered, asked again about once a second
     * (a backup that restarted may hold less than it answered, and only its own answer says so).
     */
    private long firstsView(String backup, LedgerInfo l) {
        return due("b" + backup + "/" + l.id()) ? copies.ask(backup, l.id(), false).applied()
                : copies.backupOrAsk(backup, l.id()).applied();
    }

    /** How far the backup holds a ledger another log node copies: asked about once a second. */
    private long askedBackup(String backup, LedgerInfo l) {
        if (due("b" + backup + "/" + l.id())) {
            return copies.ask(backup, l.id(), false).applied();
        }
        return copies.backup(backup, l.id()).applied();
    }

    private LedgerCopies.Held askedOwner(LedgerInfo l) {
        return askedStore(l.writer(), l);
    }

    /** How far a data node's own store holds a ledger: asked about once a second. */
    private LedgerCopies.Held askedStore(String node, LedgerInfo l) {
        if (due("o" + node + "/" + l.id())) {
            return copies.ask(node, l.id(), true);
        }
        return copies.owner(node, l.id());
    }

    private boolean due(String what) {
        return due(what, ASK_INTERVAL_NANOS);
    }

    private boolean due(String what, long interval) {
        long now = System.nanoTime();
        Long last = asked.get(what);
        if (last != null && now - last < interval) {
            return false;
        }
        asked.put(what, now);
        return true;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
