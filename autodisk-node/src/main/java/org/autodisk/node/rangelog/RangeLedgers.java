package org.autodisk.node.rangelog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LedgerException;
import org.autodisk.node.ledger.LedgerWriter;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.peer.PeerException;
import org.autodisk.node.wire.LedgerHandover;

/**
 * {@link WriteAheadLog} as ledgers: one {@link RangeSlot} per range this node owns, kept in step with the committed
 * metadata (a split, a move or a new epoch retires the range's slot, which closes its ledger, and its successors
 * start after that). A write waits (bounded) while its range recovers, goes to the range's writer, is applied on the
 * apply thread once acknowledged, and is answered there.
 */
final class RangeLedgers implements WriteAheadLog {

    /** A write whose writer stopped before sending it is tried again this often (it was never written). */
    private static final int MAX_ATTEMPTS = 3;

    private final SlotContext ctx;
    private final List<String> logNodes;
    private final Duration wait;
    private final ScheduledExecutorService clock;
    private final ExecutorService slow;
    private final Map<Integer, RangeSlot> slots = new ConcurrentHashMap<>();
    private final WriteRetries retries;
    /** Retired slots that may still write the store: a replay page of their start, a group acknowledged before. */
    private final Set<RangeSlot> finishing = ConcurrentHashMap.newKeySet();
    private final List<Runnable> leaseWaiters = new ArrayList<>();
    /** Writers whose lease a waiting request is renewing now. */
    private final Set<LedgerWriter> renewing = ConcurrentHashMap.newKeySet();
    private CompletableFuture<Void> retiring = CompletableFuture.completedFuture(null);

    RangeLedgers(SlotContext ctx, List<String> ownLogNodes, Duration wait, ScheduledExecutorService clock,
            ExecutorService slow) {
        this.ctx = ctx;
        this.logNodes = List.copyOf(ownLogNodes);
        this.wait = wait;
        this.clock = clock;
        this.slow = slow;
        this.retries = new WriteRetries(ctx.self(), clock);
    }

    /** Follows the metadata and starts the maintenance and the lease renewals. */
    void start(long maintainMs) {
        ctx.up().probe(ctx.logNodes());
        ctx.metadata().subscribe(this::reconcile);
        reconcile(ctx.metadata().current());
        clock.scheduleWithFixedDelay(this::maintain, maintainMs, maintainMs, TimeUnit.MILLISECONDS);
        long renewMs = renewNanos() / 1_000_000;
        if (renewMs > 0) {
            clock.scheduleWithFixedDelay(this::renewLeases, renewMs, renewMs, TimeUnit.MILLISECONDS);
        }
    }

    /** A lease is renewed once its oldest confirmation is a quarter of it old. */
    private long renewNanos() {
        return ctx.writer().lease().toNanos() / 4;
    }

    /**
     * Renews the leases of the writers whose confirmations are getting old (writes confirm them all the time): one
     * LEDGER_LEASE per log node for all of them.
     */
    private void renewLeases() {
        long now = ctx.timer().nanoTime();
        Map<String, List<LedgerWriter>> byNode = new HashMap<>();
        for (RangeSlot slot : slots.values()) {
            LedgerWriter w = slot.servingWriter();
            if (w != null) {
                w.toRenew(now, renewNanos()).forEach(n -> byNode.computeIfAbsent(n, k -> new ArrayList<>()).add(w));
            }
        }
        byNode.forEach((node, writers) -> renew(node, writers, now));
    }

    private CompletableFuture<?> renew(String node, List<LedgerWriter> writers, long sent) {
        List<Long> ids = writers.stream().map(w -> w.ledger().id()).toList();
        return ctx.peers().confirm(node, ids).whenComplete((fenced, err) -> {
            writers.forEach(w -> w.leaseAnswered(node, sent, err == null && fenced.contains(w.ledger().id()), err));
            notifyLeased();
        });
    }

    /** Wakes the requests that wait for a lease. */
    private void notifyLeased() {
        List<Runnable> waiting;
        synchronized (leaseWaiters) {
            waiting = List.copyOf(leaseWaiters);
            leaseWaiters.clear();
        }
        waiting.forEach(Runnable::run);
    }

    /**
     * Retires the slots of ranges that changed and starts slots for ranges owned now. The successors are in the map
     * before the old slots are retired, so a write that the retirement sends back finds its new slot; they start
     * once every retired ledger is closed.
     */
    synchronized void reconcile(MetaState state) {
        if (!state.bootstrapped()) {
            return;
        }
        ctx.cutovers().tidy(state);
        Map<Integer, RangeDescriptor> mine = new HashMap<>();
        state.ranges().stream().filter(r -> r.owner().equals(ctx.self())).forEach(r -> mine.put(r.id(), r));
        List<RangeSlot> changed = slots.values().stream().filter(s -> changed(s, mine.get(s.rangeId()))).toList();
        CompletableFuture<Void> gate = changed.isEmpty() ? retiring : new CompletableFuture<>();
        List<RangeSlot> started = new ArrayList<>();
        for (RangeDescriptor r : mine.values()) {
            RangeSlot old = slots.get(r.id());
            if (old == null || changed.contains(old)) {
                RangeSlot slot = new RangeSlot(ctx, r, gate);
                slots.put(r.id(), slot);
                started.add(slot);
            }
        }
        changed.stream().filter(s -> !mine.containsKey(s.rangeId())).forEach(s -> slots.remove(s.rangeId()));
        if (!changed.isEmpty()) {
            List<CompletableFuture<Void>> closing = new ArrayList<>(changed.stream().map(RangeSlot::retire).toList());
            closing.add(retiring);
            retiring = CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new));
            finishing.addAll(changed);
            retiring.whenComplete((v, e) -> gate.complete(null));
        }
        started.forEach(RangeSlot::start);
        slots.values().forEach(s -> s.movingAway(movingAway(state, s.rangeId())));
    }

    /** Whether a migration moves the range away from this node (a move: a backup fill moves nothing). */
    private boolean movingAway(MetaState state, int rangeId) {
        MigrationInfo m = state.migrationOf(rangeId);
        return m != null && !m.backup() && m.source().equals(ctx.self());
    }

    private static boolean changed(RangeSlot slot, RangeDescriptor now) {
        return now == null || now.epoch() != slot.range().epoch() || now.generation() != slot.range().generation();
    }

    private void maintain() {
        ctx.up().probe(ctx.logNodes());
        slots().forEach(RangeSlot::maintain);
    }

    /**
     * On the request path: no lock when the slot is there. A miss looks again under the lock, since reconcile (the
     * only writer of the map, holding this object's lock) puts the halves of a split one after the other.
     */
    private RangeSlot slotFor(int rangeId, byte[] key) {
        RangeSlot slot = find(rangeId, key);
        if (slot != null) {
            return slot;
        }
        synchronized (this) {
            return find(rangeId, key);
        }
    }

    @Override
    public synchronized boolean hasWriterOver(RangeDescriptor range) {
        finishing.removeIf(s -> !s.mayStillApply());
        return Stream.concat(slots.values().stream(), finishing.stream()).anyMatch(s ->
                range.contains(s.range().low()) || s.range().contains(range.low()));
    }

    private RangeSlot find(int rangeId, byte[] key) {
        RangeSlot slot = slots.get(rangeId);
        if (slot != null && slot.range().contains(key)) {
            return slot;
        }
        return slots.values().stream().filter(s -> s.range().contains(key)).findFirst().orElse(null);
    }

    @Override
    public void log(int rangeId, long epoch, int op, byte[] key, byte[] value, int multiplicity,
            Consumer<Applied> onApplied, Consumer<RuntimeException> onFailure) {
        if (multiplicity > ctx.writer().multiplicity()) {
            onFailure.accept(new PeerException(Status.RULE_FAILED, ctx.self() + ": the rules asked for " + multiplicity
                    + " log copies of key " + Keys.render(key) + ", but ranges are logged to "
                    + ctx.writer().multiplicity() + " (wal.multiplicity)"));
            return;
        }
        write(new Write(rangeId, op, key, value, onApplied, onFailure), 1);
    }

    private record Write(int rangeId, int op, byte[] key, byte[] value, Consumer<Applied> onApplied,
            Consumer<RuntimeException> onFailure) {
    }

    private void write(Write w, int attempt) {
        RangeSlot slot = slotFor(w.rangeId(), w.key());
        if (slot == null) {
            w.onFailure().accept(new MovedAway("data node " + ctx.self() + " no longer owns the range of key "
                    + Keys.render(w.key()) + "; retry"));
            return;
        }
        CompletableFuture<LedgerWriter> ready = slot.ready();
        if (ready.isDone() && !ready.isCompletedExceptionally()) {
            add(slot, ready.join(), w, attempt);
            return;
        }
        if (ctx.ensemble().isEmpty()) { // it cannot serve before a log node answers: refuse now, not after the wait
            w.onFailure().accept(noLogNode(slot));
            return;
        }
        ready.copy().orTimeout(wait.toMillis(), TimeUnit.MILLISECONDS).whenComplete((writer, err) -> {
            if (err == null) {
                add(slot, writer, w, attempt);
            } else if (LedgerException.unwrap(err) instanceof RangeSlot.Retired && attempt < MAX_ATTEMPTS) {
                write(w, attempt + 1);
            } else {
                w.onFailure().accept(notServing(slot));
            }
        });
    }

    /** The refusal of a request whose range cannot serve while none of the node's log nodes answered a probe. */
    private PeerException noLogNode(RangeSlot slot) {
        return new PeerException(Status.NODE_UNAVAILABLE, "data node " + ctx.self() + ": range " + slot.rangeId()
                + " cannot serve: none of its log nodes " + ctx.logNodes() + " answers" + (slot.problem() == null ? ""
                        : " (" + slot.problem() + ")") + "; retry");
    }

    private PeerException notServing(RangeSlot slot) {
        String why = slot.problem();
        return new PeerException(Status.NODE_UNAVAILABLE, "data node " + ctx.self() + ": range " + slot.rangeId()
                + " does not serve yet" + (why == null ? "" : " (" + why + ")") + " after " + wait.toMillis()
                + " ms; retry");
    }

    private void add(RangeSlot slot, LedgerWriter writer, Write w, int attempt) {
        RangeDescriptor r = slot.range();
        writer.add(r.id(), r.epoch(), w.op(), w.key(), w.value()).whenComplete((entry, err) -> {
            if (err == null) {
                ctx.apply().answer(entry, res -> answered(entry, res, w));
                return;
            }
            slot.writerStopped(writer);
            RuntimeException cause = LedgerException.unwrap(err);
            boolean neverSent = cause instanceof LedgerException le && le.kind() == LedgerException.Kind.UNAVAILABLE;
            if (neverSent && attempt < MAX_ATTEMPTS) {
                // not written: safe to send again, once the log nodes were asked whether any still answers
                ctx.up().probe(ctx.logNodes()).whenComplete((v, e) -> retries.submit(() -> write(w, attempt + 1),
                        w.onFailure()));
            } else {
                w.onFailure().accept(new PeerException(neverSent ? Status.NODE_UNAVAILABLE : Status.OUTCOME_UNKNOWN,
                        cause.getMessage()));
            }
        });
    }

    private void answered(LedgerEntry entry, ApplyThread.Result res, Write w) {
        if (res.failure() == null) {
            w.onApplied().accept(new Applied(entry.toRecord(), res.changed(), res.durableNanos()));
        } else {
            w.onFailure().accept(new PeerException(Status.OUTCOME_UNKNOWN, "data node " + ctx.self() + ": " + entry
                    + " is in the log, but the store failed to apply it (" + res.failure().getMessage()
                    + "); the range applies it once it recovered"));
        }
    }

    /**
     * A request may be served once the range serves here and its writer holds the lease; while it does not, the
     * request waits (bounded), and a lease that lapsed is renewed at once. A range with no slot here changed as the
     * request came in (it moved away, or this node has not started serving it yet): the request is refused, not
     * served from a store that may be behind, and the client sends it again.
     */
    @Override
    public CompletableFuture<Void> ready(int rangeId, byte[] key) {
        RangeSlot slot = slotFor(rangeId, key);
        if (slot == null) {
            return CompletableFuture.failedFuture(new MovedAway("data node " + ctx.self() + " does not serve the "
                    + "range of key " + Keys.render(key) + " (it changed as the request came in); retry"));
        }
        if (slot.storeCurrent() && slot.leased(ctx.timer().nanoTime())) {
            return CompletableFuture.completedFuture(null);
        }
        if (ctx.ensemble().isEmpty()) { // no lease and no writer before a log node answers: refuse now
            return CompletableFuture.failedFuture(noLogNode(slot));
        }
        CompletableFuture<Void> out = new CompletableFuture<>();
        awaitServing(slot, ctx.timer().nanoTime() + wait.toNanos(), out);
        return out;
    }

    private void awaitServing(RangeSlot slot, long deadline, CompletableFuture<Void> out) {
        long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - ctx.timer().nanoTime()));
        slot.ready().copy().orTimeout(left, TimeUnit.MILLISECONDS).whenComplete((writer, err) -> {
            if (err != null && LedgerException.unwrap(err) instanceof RangeSlot.Retired) {
                out.complete(null);
            } else if (err != null) {
                out.completeExceptionally(notServing(slot));
            } else {
                awaitLease(slot, deadline, true, out);
            }
        });
    }

    /** Waits for the slot's lease: renews it once, then wakes at each renewal answer until the deadline. */
    private void awaitLease(RangeSlot slot, long deadline, boolean renew, CompletableFuture<Void> out) {
        long now = ctx.timer().nanoTime();
        LedgerWriter w = slot.servingWriter();
        if (slot.leased(now)) {
            out.complete(null);
        } else if (now - deadline >= 0) {
            out.completeExceptionally(new PeerException(Status.NODE_UNAVAILABLE, "data node " + ctx.self()
                    + ": range " + slot.rangeId() + " holds no lease: the log nodes of its ledger did not confirm it "
                    + "within " + wait.toMillis() + " ms; retry"));
        } else if (w == null) {
            awaitServing(slot, deadline, out);
        } else {
            synchronized (leaseWaiters) {
                leaseWaiters.add(() -> awaitLease(slot, deadline, false, out));
            }
            if (renew) { // once per request: its deadline, and a renewal unless one is under way
                ctx.timer().schedule(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - now)), this::notifyLeased);
                renewNow(w, now);
            }
        }
    }

    /** Renews a writer's lease at once, unless such a renewal is under way: many waiting requests send one. */
    private void renewNow(LedgerWriter w, long now) {
        List<String> nodes = w.toRenew(now, 0);
        if (nodes.isEmpty() || !renewing.add(w)) {
            return;
        }
        CompletableFuture.allOf(nodes.stream().map(node -> renew(node, List.of(w), now))
                .toArray(CompletableFuture[]::new)).whenComplete((v, err) -> renewing.remove(w));
    }

    @Override
    public List<String> logNodes() {
        return logNodes;
    }

    /**
     * Asked by metrics and status, outside this object's lock: a slot's answer may wait for its writer's lock, held by
     * a write whose ensemble change (a metadata proposal) may tell this object's reconcile, which takes its lock.
     */
    @Override
    public boolean degraded() {
        return slots().stream().anyMatch(RangeSlot::degraded);
    }

    @Override
    public String describe() {
        String waiting = slots().stream().filter(s -> s.problem() != null)
                .map(s -> "range " + s.rangeId() + ": " + s.problem()).collect(Collectors.joining("; "));
        return waiting.isEmpty() ? "" : "not serving yet: " + waiting;
    }

    private synchronized List<RangeSlot> slots() {
        return List.copyOf(slots.values());
    }

    /**
     * Waits until every range this node owns serves.
     *
     * @param timeout at most this long
     * @return the ranges that do not serve yet, with what they wait for (empty if all serve)
     */
    String awaitServing(Duration timeout) {
        List<CompletableFuture<LedgerWriter>> all;
        synchronized (this) {
            all = slots.values().stream().map(RangeSlot::ready).toList();
        }
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(timeout.toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            return describe();
        }
        return "";
    }

    @Override
    public MetaCommand.Split splitCommand(RangeDescriptor range, byte[] at) {
        List<String> ensemble = range.owner().equals(ctx.self()) ? ctx.ensemble() : List.of();
        return ensemble.isEmpty() ? WriteAheadLog.super.splitCommand(range, at)
                : new MetaCommand.Split(range.id(), range.generation(), at, ensemble, ctx.cutovers().opener());
    }

    @Override
    public List<String> reserveCutoverLedger(int rangeId, long epoch) {
        List<String> ensemble = ctx.ensemble();
        if (!ensemble.isEmpty()) {
            ctx.cutovers().reserve(rangeId, epoch);
        }
        return List.copyOf(ensemble);
    }

    @Override
    public void releaseCutoverLedger(int rangeId, long epoch) {
        ctx.cutovers().release(rangeId, epoch);
    }

    @Override
    public double cutoverPausedMillis() {
        return ctx.cutovers().pausedMillis();
    }

    @Override
    public boolean handOver(LedgerHandover handover) {
        return ctx.cutovers().handOver(handover);
    }

    @Override
    public void close() {
        synchronized (this) {
            slots.values().forEach(RangeSlot::stop);
            slots.clear();
        }
        clock.shutdownNow();
        retries.close();
        slow.shutdownNow();
        ctx.apply().close();
    }
}
