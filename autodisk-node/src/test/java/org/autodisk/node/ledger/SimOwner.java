package org.autodisk.node.ledger;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * The data node that owns the simulated range: on every start it recovers every ledger of the range not closed yet,
 * replays the closed ledgers into its store past what the store kept, opens a new ledger and writes through it. Its
 * store keeps only what it flushed when it crashes (RocksDB without its own WAL).
 */
final class SimOwner {

    enum Outcome { ACKNOWLEDGED, UNKNOWN, FAILED }

    static final String ID = "d1";
    private static final Duration TIMEOUT = Duration.ofMillis(40);

    private final SimWorld world;
    private final int multiplicity;
    private Map<String, String> flushed = new HashMap<>();
    private Map<Long, Long> flushedApplied = new HashMap<>();
    Map<String, String> data = new HashMap<>();
    private Map<Long, Long> applied = new HashMap<>();
    private int incarnation;
    boolean up;
    boolean serving;
    private boolean starting;
    private LedgerWriter writer;

    SimOwner(SimWorld world, int multiplicity) {
        this.world = world;
        this.multiplicity = multiplicity;
    }

    void start() {
        incarnation++;
        up = true;
        serving = false;
        writer = null;
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

    private boolean alive(int inc) {
        return up && incarnation == inc;
    }

    private void recoverAndOpen(int inc) {
        starting = true;
        Supplier<Boolean> alive = () -> alive(inc);
        LedgerPeers peers = world.peersFor(ID, alive);
        Metadata meta = world.metadataFor(alive);
        LedgerRecovery recovery = new LedgerRecovery(ID, meta, peers, world, TIMEOUT);
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (LedgerInfo l : world.state().ledgersOf(range())) {
            if (l.state() != LedgerState.CLOSED) {
                chain = chain.thenCompose(v -> recovery.recover(l.id())).thenApply(x -> null);
            }
        }
        chain.thenCompose(v -> replay(peers)).thenCompose(v -> open(meta, peers, alive, inc))
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

    private CompletableFuture<Void> replay(LedgerPeers peers) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (LedgerInfo l : world.state().ledgersOf(range())) {
            long from = applied.getOrDefault(l.id(), 0L) + 1;
            if (l.state() == LedgerState.CLOSED && from <= l.lastEntry()) {
                chain = chain.thenCompose(v -> new LedgerReader(peers).read(l, from, l.lastEntry()))
                        .thenAccept(this::apply);
            }
        }
        return chain;
    }

    private CompletableFuture<Void> open(Metadata meta, LedgerPeers peers, Supplier<Boolean> alive, int inc) {
        List<String> up = world.logNodesUp();
        List<String> ensemble = up.subList(0, Math.min(multiplicity, up.size()));
        if (ensemble.isEmpty()) {
            return CompletableFuture.failedFuture(new LedgerException(LedgerException.Kind.UNAVAILABLE, "no log node"));
        }
        RangeDescriptor r = range();
        return meta.submit(new MetaCommand.OpenLedger(r.id(), r.epoch(), ID, ensemble), TIMEOUT).thenAccept(res -> {
            if (!res.applied()) {
                throw new LedgerException(LedgerException.Kind.REFUSED, res.refusal());
            }
            if (alive(inc)) {
                writer = new LedgerWriter(ID, world.state().ledger(res.ledgerId()), meta, peers, world,
                        new LedgerWriter.WriterSettings(multiplicity, TIMEOUT, TIMEOUT), world::logNodesUp,
                        this::apply);
                serving = true;
                starting = false;
            }
        });
    }

    private void scheduleRestore(int inc) {
        world.schedule(100, () -> {
            if (alive(inc)) {
                if (writer != null && writer.state() == LedgerWriter.State.OPEN) {
                    writer.restore();
                }
                scheduleRestore(inc);
            }
        });
    }

    private void apply(List<LedgerEntry> entries) {
        for (LedgerEntry e : entries) {
            if (applied.getOrDefault(e.ledgerId(), 0L) < e.entryId()) {
                if (e.op() == LogRecord.PUT) {
                    data.put(new String(e.key()), new String(e.value()));
                } else {
                    data.remove(new String(e.key()));
                }
                applied.put(e.ledgerId(), e.entryId());
            }
        }
    }

    /** Writes a key; the outcome is what a client would be told. */
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
                told.accept(Outcome.ACKNOWLEDGED);
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
        return writer != null && (writer.state() == LedgerWriter.State.BROKEN
                || writer.state() == LedgerWriter.State.FENCED);
    }

    /** Restarts the writer when it stopped without a write noticing. */
    void restartIfStopped() {
        if (up && serving && writerStopped() && !starting) {
            serving = false;
            recoverAndOpen(incarnation);
        }
    }
}
