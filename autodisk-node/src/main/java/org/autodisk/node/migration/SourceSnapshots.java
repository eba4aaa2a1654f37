package org.autodisk.node.migration;

import java.util.HashMap;
import java.util.Map;
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
 */
final class SourceSnapshots {

    private static final Logger LOG = LoggerFactory.getLogger(SourceSnapshots.class);
    private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(60);

    private record Open(StoreSnapshot snapshot, long[] lastUse) {
    }

    private final String self;
    private final LocalStore store;
    private final int maxBudget;
    private final Map<Long, Open> open = new HashMap<>();

    SourceSnapshots(String self, LocalStore store, int maxBudget) {
        this.self = self;
        this.store = store;
        this.maxBudget = maxBudget;
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
            o = new Open(store.snapshot(), new long[1]);
            open.put(m.id(), o);
            positions = positions(state, r, o.snapshot());
            LOG.info("{}: migration {}: copying range {} {} to {} from key {} (snapshot at ledger positions {})",
                    self, m.id(), r.id(), r.span(), m.target(), Keys.render(req.from()), positions);
        }
        o.lastUse()[0] = System.nanoTime();
        StoreSnapshot.Chunk c = o.snapshot().read(req.from(), r.high(), Math.min(req.byteBudget(), maxBudget));
        return new MigrationChunk(c.streams(), c.next(), positions);
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
            if (m == null || m.phase() != MigrationPhase.COPYING || now - open.get(id).lastUse()[0] > IDLE_NANOS) {
                close(id);
            }
        }
    }

    private void close(long id) {
        Open o = open.remove(id);
        if (o != null) {
            o.snapshot().close();
        }
    }

    synchronized void closeAll() {
        Map.copyOf(open).keySet().forEach(this::close);
    }
}
