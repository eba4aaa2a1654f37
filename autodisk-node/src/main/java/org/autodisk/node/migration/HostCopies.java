package org.autodisk.node.migration;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.MigrationWriteRequest;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Guard;
import org.autodisk.node.ops.Request;

/**
 * The target's side of host-driven migrations (the baseline the paper calls conventional disks): takes the streams
 * a host copies to it (MIGRATION_WRITE) once its run took the range's ledger positions, and, on the host's last
 * write, makes the copy durable and moves the migration on to catching up. Refuses, with nothing written, a write
 * for a migration that is not host-driven, not this node's, past its copy, or with a key outside the range.
 */
final class HostCopies {

    /** {@code startedBy} of a host-driven migration. */
    static final String BY_HOST = "host";
    /** How long a target waiting for the host waits for a metadata change before it looks again. */
    static final Duration WAIT = Duration.ofSeconds(1);

    private final MigrationContext mc;
    private final Set<Long> ready = ConcurrentHashMap.newKeySet();
    /** Streams and bytes the host wrote, per migration: recorded when it is done. */
    private final Map<Long, AtomicLongArray> written = new ConcurrentHashMap<>();
    /** Held shared from a write's check of its migration to its ingest; {@link #barrier} takes it alone. */
    private final ReadWriteLock writing = new ReentrantReadWriteLock();

    HostCopies(MigrationContext mc) {
        this.mc = mc;
    }

    boolean ready(long id) {
        return ready.contains(id);
    }

    void markReady(long id) {
        ready.add(id);
    }

    /** Forgets the migrations that ended. */
    void tidy(MetaState s) {
        ready.removeIf(id -> s.migration(id) == null);
        written.keySet().removeIf(id -> s.migration(id) == null);
    }

    /**
     * Waits until every host write that checked its migration before now is in the store: a write after this
     * checks the metadata as it is now.
     */
    void barrier() {
        writing.writeLock().lock();
        writing.writeLock().unlock();
    }

    void handle(Request request) {
        MigrationWriteRequest req = MigrationWriteRequest.decode(request.frame().body());
        MigrationInfo m;
        long n;
        writing.readLock().lock();
        try {
            MetaState s = mc.metadata().current();
            m = check(s, req);
            n = ingest(s.range(m.rangeId()), req);
        } finally {
            writing.readLock().unlock();
        }
        AtomicLongArray total = written.computeIfAbsent(m.id(), id -> new AtomicLongArray(2));
        total.addAndGet(0, req.streams().size());
        req.streams().forEach(kv -> total.addAndGet(1, kv.key().length + kv.value().length));
        if (!req.last()) {
            request.reply(Responses.bytesResult(Long.toString(n).getBytes(StandardCharsets.UTF_8)));
            return;
        }
        long flushing = System.nanoTime();
        mc.store().makeDurable();
        mc.times().add(MigrationTimes.Part.FLUSH, flushing);
        long committing = System.nanoTime();
        mc.metadata().submit(new MetaCommand.MigrationProgress(m.id(), MigrationPhase.COPYING,
                MigrationPhase.CATCHING_UP, m.keysCopied() + total.get(0), m.bytesCopied() + total.get(1),
                m.resumeAfter(), m.copyRun()),
                mc.settings().metadataTimeout()).whenComplete((res, error) -> {
                    mc.times().add(MigrationTimes.Part.COMMIT, committing);
                    if (error != null) {
                        Guard.failed(request, error, "host copy of migration " + m.id() + " not ended");
                    } else if (!res.applied()) {
                        request.replyError(Status.INVALID_ARGUMENT, res.refusal());
                    } else {
                        request.reply(Responses.bytesResult(Long.toString(n).getBytes(
                                StandardCharsets.UTF_8)));
                    }
                });
    }

    private long ingest(RangeDescriptor r, MigrationWriteRequest req) {
        for (KeyValue kv : req.streams()) {
            if (!r.contains(kv.key())) {
                throw invalid("key " + Keys.render(kv.key()) + " is outside range " + r.id() + " " + r.span()
                        + "; nothing of this write was taken");
            }
        }
        long t = System.nanoTime();
        long n = mc.store().ingest(req.streams(), Map.of());
        mc.times().add(MigrationTimes.Part.STORE, t);
        return n;
    }

    private MigrationInfo check(MetaState s, MigrationWriteRequest req) {
        MigrationInfo m = s.migration(req.migrationId());
        if (m == null && req.migrationId() >= s.nextMigrationId()) {
            throw new ProtocolException(Status.NODE_UNAVAILABLE, "node " + mc.self() + " has not seen migration "
                    + req.migrationId() + " yet (its metadata is at version " + s.version() + "); try again");
        }
        if (m == null) {
            throw invalid("there is no migration " + req.migrationId() + " under way");
        }
        if (!m.target().equals(mc.self())) {
            throw invalid("node " + mc.self() + " is not the target of migration " + m.id() + "; " + m.target()
                    + " is");
        }
        if (!BY_HOST.equals(m.startedBy())) {
            throw invalid("migration " + m.id() + " copies by itself (started by " + m.startedBy() + "); only a "
                    + "host-driven migration takes MIGRATION_WRITE");
        }
        if (m.phase() != MigrationPhase.COPYING) {
            throw invalid("migration " + m.id() + " is past its copy (" + m.phase() + ")");
        }
        if (!ready(m.id())) {
            throw new ProtocolException(Status.NODE_UNAVAILABLE, "node " + mc.self() + " is not ready for the "
                    + "host's copy of migration " + m.id() + " yet; try again");
        }
        return m;
    }

    private static ProtocolException invalid(String why) {
        return new ProtocolException(Status.INVALID_ARGUMENT, why);
    }
}
