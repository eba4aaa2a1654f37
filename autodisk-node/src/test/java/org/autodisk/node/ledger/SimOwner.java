package org.autodisk.node.ledger;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.wire.LogRecord;

/**
 * The data node that owns the simulated range (after {@code RangeSlot} and {@code ApplyThread}): on every start it
 * recovers every ledger of the range not closed yet, replays the closed ledgers into its store past what the store
 * kept, opens a new ledger and writes through it. Acknowledged groups reach the store on its apply thread, a little
 * later and in order, and a write is answered after its group was applied; a group the store fails to apply halts
 * the range (later groups are not applied either, their writes are answered OUTCOME_UNKNOWN) until it recovered
 * and replayed. Its store keeps only what it flushed when it crashes (RocksDB without its own WAL). It stops (is
 * retired) once the metadata names another owner of the range.
 */
final class SimOwner {

    enum Outcome { ACKNOWLEDGED, UNKNOWN, FAILED }

    static final String ID = "d1";
    static final Duration TIMEOUT = Duration.ofMillis(40);
    /** How long an acknowledged group waits on the apply thread (in order) before it reaches the store. */
    private static final long APPLY_LAG_MILLIS = 2;

    final String id;
    private final SimWorld world;
    private final int multiplicity;
    private Map<String, String> flushed = new HashMap<>();
    private Map<Long, Long> flushedApplied = new HashMap<>();
    Map<String, String> data = new HashMap<>();
    private Map<Long, Long> applied = new HashMap<>();
    private final Set<LedgerEntry> notApplied = new HashSet<>();
    private int incarnation;
    boolean up;
    boolean serving;
    private boolean starting;
    private LedgerWriter writer;
    private String halted;
    private int applyFailures;
    /** Fault knob: how long the apply thread takes to reach a group (and the answers behind it). */
    long applyLagMillis = APPLY_LAG_MILLIS;

    SimOwner(SimWorld world, int multiplicity) {
        this(world, multiplicity, ID);
    }

    SimOwner(SimWorld world, int multiplicity, String id) {
        this.world = world;
        this.multiplicity = multiplicity;
        this.id = id;
    }

    void start() {
        incarnation++;
        up = true;
        serving = false;
        writer = null;
        halted = null;
        notApplied.clear();
        data = new HashMap<>(flushed);
        applied = new HashMap<>(flushedApplied);
        recoverAndOpen(incarnation);
        scheduleRestore(incarnation);
    }

    void crash() {
        up = false;
        serving = false;
        writer = null;
    }

    void flush() {
        if (up) {
            flushed = new HashMap<>(data);
            flushedApplied = new HashMap<>(applied);
        }
    }

    /** Fault hook: the store fails to apply the next acknowledged group (then works again). */
    void failNextApply() {
        applyFailures++;
    }

    /** Restores the writer's multiplicity now (the maintenance does it every 100 ms). */
    void restoreNow() {
        if (writer != null && writer.state() == WriterState.OPEN) {
            writer.restore();
        }
    }

    LedgerWriter writer() {
        return writer;
    }

    /** The last entry of a ledger applied to the store. */
    long applied(long ledgerId) {
        return applied.getOrDefault(ledgerId, 0L);
    }

    private boolean alive(int inc) {
        return up && incarnation == inc;
    }

    private void recoverAndOpen(int inc) {
        if (!range().owner().equals(id)) {
            serving = false;
            starting = false;
            return;
        }
        starting = true;
        Supplier<Boolean> alive = () -> alive(inc);
        LedgerPeers peers = world.peersFor(id, alive);
        Metadata meta = world.metadataFor(alive);
        LedgerRecovery recovery = new LedgerRecovery(id, meta, peers, world, TIMEOUT);
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (LedgerInfo l : world.state().ledgersOf(range())) {
            if (l.state() != LedgerState.CLOSED) {
                chain = chain.thenCompose(v -> recovery.recover(l.id())).thenApply(x -> null);
            }
        }
        chain.thenCompose(v -> replay(peers, inc)).thenCompose(v -> open(meta, peers, inc))
                .whenComplete((v, err) -> {
                    if (err != null && alive(inc)) {
                        world.schedule(TIMEOUT.toMillis(), () -> {
                            if (alive(inc)) {
                                recoverAndOpen(inc);
                            }
                        });
                    }
                });
    }

    private RangeDescriptor range() {
        return world.state().range(0);
    }

    private CompletableFuture<Void> replay(LedgerPeers peers, int inc) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (LedgerInfo l : world.state().ledgersOf(range())) {
            if (l.state() == LedgerState.CLOSED) {
                chain = chain.thenCompose(v -> {
                    long from = applied(l.id()) + 1;
                    return from > l.lastEntry() ? CompletableFuture.completedFuture(null)
                            : new LedgerReader(peers).read(l, from, l.lastEntry())
                                    .thenCompose(entries -> onApplyThread(inc, () -> apply(entries)));
                });
            }
        }
        return chain;
    }

    private CompletableFuture<Void> open(Metadata meta, LedgerPeers peers, int inc) {
        List<String> up = world.logNodesUp();
        List<String> ensemble = up.subList(0, Math.min(multiplicity, up.size()));
        if (ensemble.isEmpty()) {
            return CompletableFuture.failedFuture(new LedgerException(LedgerException.Kind.UNAVAILABLE, "no log node"));
        }
        RangeDescriptor r = range();
        return meta.submit(new MetaCommand.OpenLedger(r.id(), r.epoch(), id, ensemble), TIMEOUT).thenAccept(res -> {
            if (!res.applied()) {
                throw new LedgerException(LedgerException.Kind.REFUSED, res.refusal());
            }
            if (alive(inc)) {
                writer = new LedgerWriter(id, world.state().ledger(res.ledgerId()), meta, peers, world,
                        new WriterSettings(multiplicity, TIMEOUT, TIMEOUT), world::logNodesUp,
                        (entries, ack) -> {
                            onApplyThread(inc, () -> applyAcknowledged(inc, entries));
                            ack.run();
                        });
                serving = true;
                starting = false;
                halted = null;
            }
        });
    }

    private void scheduleRestore(int inc) {
        world.schedule(100, () -> {
            if (alive(inc)) {
                restoreNow();
                scheduleRestore(inc);
            }
        });
    }

    /** Runs a task on the apply thread: after the tasks queued before it; never once this incarnation ended. */
    private CompletableFuture<Void> onApplyThread(int inc, Runnable task) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        world.schedule(applyLagMillis, () -> {
            if (alive(inc)) {
                task.run();
                done.complete(null);
            }
        });
        return done;
    }

    /** An acknowledged group reaches the store; a failure halts the range until it recovered and replayed. */
    private void applyAcknowledged(int inc, List<LedgerEntry> entries) {
        if (halted == null && applyFailures > 0) {
            applyFailures--;
            halted = id + ": simulated: the store failed to apply " + entries.get(0) + " and " + (entries.size() - 1)
                    + " more";
            notApplied.addAll(entries);
            if (writer != null) {
                writer.abort(halted);
            }
            if (!starting) {
                serving = false;
                recoverAndOpen(inc);
            }
            return;
        }
        if (halted != null) {
            notApplied.addAll(entries);
            return;
        }
        apply(entries);
    }

    private void apply(List<LedgerEntry> entries) {
        for (LedgerEntry e : entries) {
            long done = applied(e.ledgerId());
            if (e.entryId() > done + 1) {
                world.violations.add(id + " would apply " + e + " past entry " + (done + 1)
                        + ", which it never applied");
                return;
            }
            if (done < e.entryId()) {
                if (e.op() == LogRecord.PUT) {
                    data.put(new String(e.key()), new String(e.value()));
                } else {
                    data.remove(new String(e.key()));
                }
                applied.put(e.ledgerId(), e.entryId());
            }
        }
    }

    /** Writes a key; the outcome is what a client would be told (nothing, if this incarnation ends first). */
    void write(String key, String value, Consumer<Outcome> told) {
        if (!up || !serving || writer == null) {
            told.accept(Outcome.FAILED);
            return;
        }
        LedgerWriter w = writer;
        int inc = incarnation;
        w.add(0, range().epoch(), LogRecord.PUT, key.getBytes(), value.getBytes()).whenComplete((e, err) -> {
            if (err == null) {
                checkHeldByItsEnsemble(e);
                onApplyThread(inc, () -> told.accept(notApplied.remove(e) ? Outcome.UNKNOWN : Outcome.ACKNOWLEDGED));
                return;
            }
            RuntimeException cause = LedgerPeersSupport.cause(err);
            boolean unknown = cause instanceof LedgerException le && le.kind() == LedgerException.Kind.OUTCOME_UNKNOWN;
            told.accept(unknown ? Outcome.UNKNOWN : Outcome.FAILED);
            if (alive(inc) && writer == w && !starting) {
                serving = false;
                recoverAndOpen(inc);
            }
        });
    }

    /** An acknowledged entry is held by every log node of its fragment, as the committed metadata records it. */
    private void checkHeldByItsEnsemble(LedgerEntry e) {
        LedgerInfo l = world.state().ledger(e.ledgerId());
        for (String node : l.fragmentOf(e.entryId()).ensemble()) {
            if (world.logNodes.get(node).store.read(e.ledgerId(), e.entryId(), 1).isEmpty()) {
                world.violations.add(e + " was acknowledged but log node " + node + " of its fragment does not "
                        + "hold it (" + l + ")");
            }
        }
    }

    boolean writerStopped() {
        return writer != null && (writer.state() == WriterState.BROKEN
                || writer.state() == WriterState.FENCED);
    }

    /** Restarts the writer when it stopped without a write noticing. */
    void restartIfStopped() {
        if (up && serving && writerStopped() && !starting) {
            serving = false;
            recoverAndOpen(incarnation);
        }
    }
}
