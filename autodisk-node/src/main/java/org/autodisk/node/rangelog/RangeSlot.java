package org.autodisk.node.rangelog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerException;
import org.autodisk.node.ledger.LedgerReader;
import org.autodisk.node.ledger.LedgerRecovery;
import org.autodisk.node.ledger.LedgerWriter;
import org.autodisk.node.ledger.WriterState;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one range this node owns, at one epoch and generation. Before it takes a write or serves a read it
 * recovers every ledger of the range that is not closed (fence, read the tail, close: see {@link LedgerRecovery}),
 * replays the closed ones into the store past what the store applied, and opens its own ledger. When its writer
 * stops (no log node left, fenced, the store failed) it does all that again. It is retired when the range splits,
 * moves or changes epoch: its writer closes its ledger once every entry is acknowledged, and the range's next slots
 * start after that. Never calls its writer while holding its own lock, and completes no future under it.
 *
 * <p>A range promoted here from its backup (failover: state RECOVERING) is first taken over from this node's backup
 * copy ({@link BackupTakeover}) once the old owner's ledger is recovered, and serves only once the old owner's lease
 * has run out (bounded by the fence's answers, {@link LedgerRecovery#oldLeaseEnds}) and the metadata says it serves.
 * Reads and writes are served only while the slot's writer holds its lease ({@link #leased}).
 */
final class RangeSlot {

    private static final Logger LOG = LoggerFactory.getLogger(RangeSlot.class);
    private static final int REPLAY_PAGE = 5_000;
    /** A start that failed is tried again after this long, then twice as long each time up to the answer timeout. */
    private static final long RETRY_FIRST_MS = 100;

    /** Why a waiting request could not use this slot: the range changed; it looks up the range's new slot. */
    static final class Retired extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Retired(String message) {
            super(message, null, false, false);
        }
    }

    private final SlotContext ctx;
    private final RangeDescriptor range;
    private final CompletableFuture<Void> after;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    /** Once the range's next slots may start: its ledger closed, or (a split here) its writer drained. */
    private final CompletableFuture<Void> released = new CompletableFuture<>();
    private final long createdNanos = System.nanoTime();
    private final SlotHandover handover;
    private final SlotPromotion promotion;
    /** The writer's last acknowledged entries while the range moves away: the cutover's handover carries them. */
    private final RecentEntries recent = new RecentEntries();
    /** The ledger this node's cutover opened for the slot, not written yet: used instead of opening one. */
    private volatile LedgerInfo preopened;
    private CompletableFuture<LedgerWriter> ready = new CompletableFuture<>();
    private LedgerWriter writer;
    private boolean starting;
    private boolean retired;
    private int failedStarts;
    private volatile RuntimeException halted;
    private volatile boolean storeCurrent;
    private volatile String problem = "recovering its log";
    /** Ledgers its former owner handed over (it said where they end) before their close committed. */
    private final Map<Long, Long> ends = new ConcurrentHashMap<>();
    /** When this slot stopped taking writes (µs, wall clock): sent with the handover. */
    private volatile long retiredAt;
    /** The writer while the range serves (its lease is the slot's); {@code null} meanwhile. */
    private volatile LedgerWriter serving;
    /** When the former owner's lease has surely run out (timer nanos), once this start recovered its ledger. */
    private volatile Long oldLeaseEnds;

    RangeSlot(SlotContext ctx, RangeDescriptor range, CompletableFuture<Void> after) {
        this.ctx = ctx;
        this.range = range;
        this.after = after;
        this.handover = new SlotHandover(ctx, range);
        this.promotion = new SlotPromotion(ctx, range, why -> problem = why);
        closed.whenComplete((v, e) -> released.complete(null));
    }

    RangeDescriptor range() {
        return range;
    }

    /** Keeps the writer's last entries while a migration moves the range away from this node, not otherwise. */
    void movingAway(boolean moving) {
        recent.keep(moving);
    }

    int rangeId() {
        return range.id();
    }

    /** The writer once the range serves; fails with {@link Retired} if the range changed first. */
    synchronized CompletableFuture<LedgerWriter> ready() {
        return ready;
    }

    /** What the range waits for while it does not serve. */
    String problem() {
        return problem;
    }

    RuntimeException halted() {
        return halted;
    }

    /**
     * Tells whether the store holds every acknowledged write of the range: once it served in this process, until
     * the store fails. Reads are served then even while a stopped writer is replaced (its unacknowledged writes are
     * not visible until recovery settles them); after a restart or a halt they wait for the replay.
     *
     * @return true if reads may be served from the store now
     */
    boolean storeCurrent() {
        return storeCurrent;
    }

    /** Recovers, replays and opens the range's ledger; tries again later while a step fails. */
    void start() {
        synchronized (this) {
            if (retired || starting) {
                return;
            }
            starting = true;
        }
        long startedAt = ctx.timer().nanoTime();
        after.thenCompose(v -> recoverUnclosed(startedAt)).thenCompose(v -> unlessSuperseded(promotion::takeOver))
                .thenCompose(v -> replayClosed()).thenCompose(v -> unlessSuperseded(this::open))
                .thenCompose(w -> promotion.leased(w, oldLeaseEnds)).thenCompose(promotion::recovered)
                .whenComplete(this::started);
    }

    private CompletableFuture<Void> recoverUnclosed(long startedAt) {
        LedgerRecovery recovery = new LedgerRecovery(ctx.self(), ctx.metadata(), ctx.peers(), ctx.timer(),
                ctx.writer().answerTimeout(), ctx.leaseBound());
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        ends.clear();
        claimPreopened();
        for (LedgerInfo l : ctx.metadata().current().ledgersOf(range)) {
            LedgerInfo mine = preopened;
            if (l.state() != LedgerState.CLOSED && (mine == null || l.id() != mine.id())) {
                chain = chain.thenCompose(v -> unlessSuperseded(() -> awaitEnd(l))).thenCompose(end -> {
                    if (end != null) {
                        ends.put(l.id(), end);
                        return CompletableFuture.completedFuture(null);
                    }
                    problem = "recovering ledger " + l.id() + " from its log nodes " + l.lastFragment().ensemble();
                    return unlessSuperseded(() -> recovery.recover(l.id())).thenApply(x -> null);
                });
            }
        }
        // kept over the slot's starts: a start after one that fenced the old ledger finds it closed, fences nothing
        return chain.thenRun(() -> oldLeaseEnds = SlotPromotion.later(oldLeaseEnds,
                promotion.leaseEnds(recovery.oldLeaseEnds(), startedAt)));
    }

    /** Takes the ledger this process's cutover or split opened for the range, if there is one. */
    private void claimPreopened() {
        if (preopened == null && ctx.cutovers() != null) {
            preopened = ctx.cutovers().preopened(ctx.metadata().current(), range, ctx.self());
        }
    }

    /**
     * After a migration's cutover to this node, the source closes its ledger of the range once every write it took
     * is acknowledged and hands it over (see {@link SlotHandover}): waiting for that rather than fencing the ledger
     * spares those writes an unknown outcome. Any other unclosed ledger is recovered at once.
     */
    private CompletableFuture<Long> awaitEnd(LedgerInfo l) {
        problem = "waiting for " + l.writer() + " to close or hand over ledger " + l.id() + " after the cutover";
        return handover.awaitEnd(l, preopened != null, this::retiredNow);
    }

    private synchronized boolean retiredNow() {
        return retired;
    }

    /** Whether the range changed since this slot was made: retired, or a slot of a view the metadata left behind. */
    private boolean superseded() {
        RangeDescriptor now = ctx.metadata().current().range(range.id());
        return retiredNow() || now == null || !now.owner().equals(ctx.self()) || now.epoch() != range.epoch()
                || now.generation() != range.generation();
    }

    /**
     * Takes a step of the start unless the range changed: a restarted node follows the metadata's history, and a slot
     * of an owner it no longer is must neither fence the new owner's ledger nor replay into a store cleaned up.
     */
    private <T> CompletableFuture<T> unlessSuperseded(Supplier<CompletableFuture<T>> step) {
        return superseded() ? CompletableFuture.failedFuture(new Retired(ctx.self() + ": range " + range.id()
                + " changed before its slot at epoch " + range.epoch() + " started")) : step.get();
    }

    /** Whether the slot may still write the store: it is starting (a replay page), or its ledger is not closed. */
    synchronized boolean mayStillApply() {
        return starting || !closed.isDone();
    }

    private CompletableFuture<Void> replayClosed() {
        List<LedgerInfo> ledgers = new ArrayList<>(ctx.metadata().current().ledgersOf(range));
        ledgers.sort(Comparator.comparingLong(LedgerInfo::id));
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        long t0 = System.nanoTime();
        long[] replayed = {0};
        for (LedgerInfo l : ledgers) {
            Long end = l.state() == LedgerState.CLOSED ? Long.valueOf(l.lastEntry()) : ends.get(l.id());
            if (end != null) {
                chain = chain.thenCompose(v -> replay(l, ctx.store().appliedEntry(l.id()) + 1, end, replayed));
            }
        }
        return chain.thenRun(() -> replayed(replayed[0], System.nanoTime() - t0));
    }

    private void replayed(long entries, long nanos) {
        if (entries > 0) {
            long ms = Math.max(1, nanos / 1_000_000);
            LOG.info("{}: range {}: recovery: replayed {} entries in {} ms ({} entries/s)", ctx.self(), range.id(),
                    entries, ms, entries * 1000 / ms);
        }
    }

    private CompletableFuture<Void> replay(LedgerInfo l, long from, long last, long[] replayed) {
        if (from > last) {
            return CompletableFuture.completedFuture(null);
        }
        problem = "replaying ledger " + l.id() + " from entry " + from + " to " + last;
        long to = Math.min(last, from + REPLAY_PAGE - 1);
        List<LedgerEntry> given = handover.given(l, from, to);
        return (given != null ? CompletableFuture.completedFuture(given)
                : unlessSuperseded(() -> new LedgerReader(ctx.peers()).read(l, from, to)))
                .thenCompose(entries -> ctx.apply().replay(l.id(), entries, () -> !superseded()))
                .thenCompose(n -> {
                    replayed[0] += n;
                    return replay(l, to + 1, last, replayed);
                });
    }

    private CompletableFuture<LedgerWriter> open() {
        LedgerInfo mine = preopened;
        if (mine != null) {
            preopened = null;
            LedgerInfo now = ctx.metadata().current().ledger(mine.id());
            if (now != null && now.state() == LedgerState.OPEN) {
                return CompletableFuture.completedFuture(writerFor(now));
            }
        }
        List<String> ensemble = ctx.ensemble();
        if (ensemble.isEmpty()) {
            return CompletableFuture.failedFuture(new LedgerException(LedgerException.Kind.UNAVAILABLE,
                    "none of the log nodes " + ctx.logNodes() + " answers"));
        }
        problem = "opening a ledger on " + ensemble;
        return ctx.metadata().submit(new MetaCommand.OpenLedger(range.id(), range.epoch(), ctx.self(), ensemble),
                ctx.writer().metadataTimeout()).thenApply(this::writerOf);
    }

    private LedgerWriter writerOf(CommandResult r) {
        if (!r.applied()) {
            throw new LedgerException(LedgerException.Kind.REFUSED, "its ledger was not opened: " + r.refusal());
        }
        return writerFor(ctx.metadata().current().ledger(r.ledgerId()));
    }

    private LedgerWriter writerFor(LedgerInfo ledger) {
        return new LedgerWriter(ctx.self(), ledger, ctx.metadata(), ctx.peers(), ctx.timer(), ctx.writer(),
                () -> ctx.up().up(ctx.logNodes()), (entries, ack) -> {
                    recent.acknowledged(entries);
                    ctx.apply().acknowledged(this, entries, ack);
                });
    }

    private void started(LedgerWriter w, Throwable err) {
        CompletableFuture<LedgerWriter> serve = null;
        boolean closeNow;
        long delay = 0;
        synchronized (this) {
            starting = false;
            closeNow = retired;
            if (!retired && err == null) {
                writer = w;
                serving = w;
                halted = null;
                problem = null;
                storeCurrent = true;
                serve = ready;
                failedStarts = 0;
            } else if (!retired) {
                long most = ctx.writer().answerTimeout().toMillis();
                delay = Math.min(most, RETRY_FIRST_MS << Math.min(failedStarts++, 16));
            }
        }
        if (closeNow) {
            closeAndFinish(w);
        } else if (err != null) {
            problem = String.valueOf(LedgerException.unwrap(err).getMessage());
            LOG.info("{}: range {} does not serve yet ({}); trying again in {} ms", ctx.self(), range.id(), problem,
                    delay);
            ctx.timer().schedule(delay, this::start);
        } else {
            LOG.info("{}: range {} {} serves, writing {} ({} ms after this node saw the range change)", ctx.self(),
                    range.id(), range.span(), w.ledger(), (System.nanoTime() - createdNanos) / 1_000_000);
            serve.complete(w);
            handover.served();
            ends.keySet().forEach(id -> handover.closeLater(id, this::retiredNow));
        }
    }

    /** The writer stopped (a write or the maintenance saw it): recover and open a new ledger. */
    void writerStopped(LedgerWriter w) {
        synchronized (this) {
            if (w != writer || retired || starting) {
                return;
            }
            writer = null;
            serving = null;
            ready = new CompletableFuture<>();
            problem = "recovering its log after its writer stopped";
        }
        start();
    }

    /** The store failed to apply an acknowledged group: no more of the range is applied until it recovers. */
    void halt(RuntimeException failure) {
        storeCurrent = false;
        halted = failure;
        LedgerWriter w;
        synchronized (this) {
            w = writer;
        }
        if (w != null) {
            w.abort("the store failed to apply an acknowledged entry: " + failure.getMessage());
            writerStopped(w);
        }
    }

    /** Restores the writer's multiplicity when a log node is back; restarts a writer that stopped unnoticed. */
    void maintain() {
        LedgerWriter w;
        synchronized (this) {
            w = writer;
        }
        if (w == null) {
            return;
        }
        WriterState s = w.state();
        if (s == WriterState.OPEN) {
            w.restore();
        } else if (s == WriterState.BROKEN || s == WriterState.FENCED) {
            writerStopped(w);
        }
    }

    /**
     * Retires the slot: the range split, moved or changed epoch.
     *
     * @return completes once its ledger is closed (or its writer stopped: recovery closes it) or, after a split that
     *         left the halves here, once its writer is drained
     */
    CompletableFuture<Void> retire() {
        LedgerWriter w;
        CompletableFuture<LedgerWriter> waiting;
        boolean stillStarting;
        synchronized (this) {
            retired = true;
            w = writer;
            writer = null;
            serving = null;
            waiting = ready;
            stillStarting = starting;
        }
        retiredAt = SlotHandover.nowMicros();
        waiting.completeExceptionally(new Retired(ctx.self() + ": range " + range.id() + " changed"));
        if (!stillStarting) {
            closeAndFinish(w);
        }
        return released;
    }

    private void closeAndFinish(LedgerWriter w) {
        if (w == null) {
            closed.complete(null);
            return;
        }
        handover.handOver(w, retiredAt, recent);
        handover.endHere(w, released);
        w.close().whenComplete((l, e) -> {
            if (e != null) {
                LOG.info("{}: range {}: {} (its next writer recovers it)", ctx.self(), range.id(),
                        LedgerException.unwrap(e).getMessage());
            }
            closed.complete(null);
        });
    }

    /** The node stops: no more recovery or retries; an open ledger stays open (the next start recovers it). */
    void stop() {
        CompletableFuture<LedgerWriter> waiting;
        synchronized (this) {
            retired = true;
            writer = null;
            serving = null;
            waiting = ready;
        }
        waiting.completeExceptionally(new LedgerException(LedgerException.Kind.UNAVAILABLE, ctx.self()
                + " is stopping"));
    }

    /**
     * Tells whether the range may be answered from the store now: it serves and its writer holds the lease.
     *
     * @param now the timer's time now
     * @return true if leased
     */
    boolean leased(long now) {
        LedgerWriter w = serving;
        return w != null && w.leased(now);
    }

    /** The writer while the range serves, for lease renewals; {@code null} meanwhile. */
    LedgerWriter servingWriter() {
        return serving;
    }

    /** Whether the writer runs with fewer log nodes than the multiplicity. */
    boolean degraded() {
        LedgerWriter w;
        synchronized (this) {
            w = writer;
        }
        return w != null && w.ledger().lastFragment().ensemble().size() < ctx.writer().multiplicity();
    }
}
