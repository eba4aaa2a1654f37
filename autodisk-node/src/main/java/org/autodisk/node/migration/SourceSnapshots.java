package org.autodisk.node.migration;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.StoreSnapshot;
import org.autodisk.node.wire.MigrationChunk;
import org.autodisk.node.wire.MigrationReadRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source's side of the copy: one store snapshot per migration it is the source of, opened when the target starts
 * or resumes, read chunk by chunk, released when the migration leaves the copying phase or its target stops asking.
 * Once it answered a chunk it reads the next one ahead, on a thread of its own, while the answer travels and the
 * target writes it: the target's next ask, which starts where that chunk ends, finds it read (one chunk ahead per
 * migration; an ask from elsewhere reads afresh).
 */
final class SourceSnapshots {

    private static final Logger LOG = LoggerFactory.getLogger(SourceSnapshots.class);
    private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** The chunk read ahead: from where, with which budget. */
    private record Ahead(byte[] from, long budget, CompletableFuture<StoreSnapshot.Chunk> chunk) {
    }

    private static final class Open {
        private final StoreSnapshot snapshot;
        private long lastUse;
        private Ahead ahead;

        Open(StoreSnapshot snapshot) {
            this.snapshot = snapshot;
        }
    }

    private final String self;
    private final LocalStore store;
    private final int maxBudget;
    private final Map<Long, Open> open = new HashMap<>();
    private final ExecutorService readAhead;

    SourceSnapshots(String self, LocalStore store, int maxBudget) {
        this.self = self;
        this.store = store;
        this.maxBudget = maxBudget;
        this.readAhead = Executors.newSingleThreadExecutor(Thread.ofPlatform().name(self + "-migration-read-ahead")
                .daemon().factory());
    }

    /**
     * Reads the next chunk of a migration's snapshot.
     *
     * @param state the committed metadata
     * @param req   the target's request
     * @return the chunk
     * @throws ProtocolException INVALID_ARGUMENT if this node is not the source of a copying migration
     */
    synchronized MigrationChunk read(MetaState state, MigrationReadRequest req) {
        MigrationInfo m = state.migration(req.migrationId());
        RangeDescriptor r = m == null ? null : state.range(m.rangeId());
        if (m == null || r == null || !m.source().equals(self) || m.phase() != MigrationPhase.COPYING) {
            throw new ProtocolException(Status.INVALID_ARGUMENT, self + " is not the source of a copying migration "
                    + req.migrationId() + (m == null ? " (there is none)" : " (" + m.phase() + " from " + m.source()
                    + ")"));
        }
        if (Keys.compare(req.from(), r.low()) < 0 || r.high() != null && Keys.compare(req.from(), r.high()) >= 0) {
            throw new ProtocolException(Status.INVALID_ARGUMENT, "key " + Keys.render(req.from()) + " is outside "
                    + "range " + r.id() + " " + r.span() + " of migration " + m.id());
        }
        Open o = open.get(m.id());
        Map<Long, Long> positions = Map.of();
        if (req.fresh() || o == null) {
            close(m.id());
            o = new Open(store.snapshot());
            open.put(m.id(), o);
            positions = positions(state, r, o.snapshot);
            LOG.info("{}: migration {}: copying range {} {} to {} from key {} (snapshot at ledger positions {})",
                    self, m.id(), r.id(), r.span(), m.target(), Keys.render(req.from()), positions);
        }
        o.lastUse = System.nanoTime();
        long budget = Math.min(req.byteBudget(), maxBudget);
        StoreSnapshot.Chunk c = readAt(o, req.from(), r.high(), budget);
        o.ahead = c.next() == null ? null : readAhead(o.snapshot, c.next(), r.high(), budget);
        return new MigrationChunk(c.streams(), c.next(), positions);
    }

    /** The chunk read ahead if it starts there (waiting for it if it is still being read), else read now. */
    private static StoreSnapshot.Chunk readAt(Open o, byte[] from, byte[] high, long budget) {
        Ahead a = o.ahead;
        o.ahead = null;
        if (a != null && a.budget() == budget && Arrays.equals(a.from(), from)) {
            try {
                return a.chunk().join();
            } catch (CompletionException | CancellationException e) {
                // read it again below: the failure, if it lasts, reaches the target from there
            }
        }
        return o.snapshot.read(from, high, budget);
    }

    private Ahead readAhead(StoreSnapshot snapshot, byte[] from, byte[] high, long budget) {
        try {
            return new Ahead(from, budget, CompletableFuture.supplyAsync(() -> snapshot.read(from, high, budget),
                    readAhead));
        } catch (RejectedExecutionException e) {
            return null;
        }
    }

    private static Map<Long, Long> positions(MetaState state, RangeDescriptor r, StoreSnapshot snap) {
        Map<Long, Long> out = new HashMap<>();
        for (LedgerInfo l : state.ledgersOf(r)) {
            out.put(l.id(), snap.appliedEntry(l.id()));
        }
        return out;
    }

    /** Releases the snapshots of migrations no longer copying from here, or whose target stopped asking. */
    synchronized void tidy(MetaState state) {
        long now = System.nanoTime();
        for (Long id : Map.copyOf(open).keySet()) {
            MigrationInfo m = state.migration(id);
            if (m == null || m.phase() != MigrationPhase.COPYING || now - open.get(id).lastUse > IDLE_NANOS) {
                close(id);
            }
        }
    }

    /** Releases a snapshot once the chunk read ahead of it, if any, is done (a snapshot read holds its lock). */
    private void close(long id) {
        Open o = open.remove(id);
        if (o != null) {
            Ahead a = o.ahead;
            o.ahead = null;
            if (a == null) {
                o.snapshot.close();
            } else {
                a.chunk().whenComplete((c, e) -> o.snapshot.close());
            }
        }
    }

    synchronized void closeAll() {
        Map.copyOf(open).keySet().forEach(this::close);
        readAhead.shutdown();
    }
}
