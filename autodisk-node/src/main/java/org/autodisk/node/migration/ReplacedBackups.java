package org.autodisk.node.migration;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.autodisk.node.meta.Applied;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.LocalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A backup that a fill replaced drops its copy of the range once the fill's target took its place (add-backup
 * committed): what moving a backup off a full disk is for. It deletes the span from its backup copy under the copy's
 * lock, after looking again at the metadata under that lock (a fill into this node that started since, or a range
 * over the span that it backs up or owns now, keeps the span: a fill clears its span under the same lock first),
 * makes the deletion durable and compacts the span so that the disk space shows free; it does so only with a view of
 * the metadata as current as the leader's (after a restart the replayed log tells of old add-backups again). Entries
 * of a ledger shared with a range it still backs up may put a few keys of the span back; a crash before the drop
 * leaves the span to the node's periodic sweep of stray spans ({@code store.sweep-ms}).
 */
final class ReplacedBackups {

    private static final Logger LOG = LoggerFactory.getLogger(ReplacedBackups.class);

    private final MigrationContext mc;
    private final Executor executor;

    ReplacedBackups(MigrationContext mc, Executor executor) {
        this.mc = mc;
        this.executor = executor;
    }

    /** Told of every applied command (on the metadata's thread): schedules the drop when this node was replaced. */
    void applied(Applied a) {
        if (!(a.command() instanceof MetaCommand.AddBackup add)) {
            return;
        }
        MigrationInfo m = a.before().migration(add.migrationId());
        RangeDescriptor r = m == null ? null : a.after().range(m.rangeId());
        if (r != null && mc.self().equals(m.replaces()) && !r.backups().contains(mc.self())) {
            executor.execute(() -> drop(m, r));
        }
    }

    /** Deletes the replaced copy's span unless the metadata now wants it here, then frees its space. */
    void drop(MigrationInfo m, RangeDescriptor r) {
        if (!mc.backups().opened() || !current(m, r)) {
            return;
        }
        LocalStore copy = mc.backups().copy();
        long n;
        synchronized (copy) {
            String kept = keptBy(mc.metadata().current(), mc.self(), r);
            if (kept != null) {
                LOG.info("{}: migration {}: keeps its backup copy of range {} {}: {}", mc.self(), m.id(), r.id(),
                        r.span(), kept);
                return;
            }
            n = copy.deleteRange(r.low(), r.high());
        }
        copy.makeDurable();
        long t = System.nanoTime();
        try {
            copy.reclaim(r.low(), r.high());
        } catch (RuntimeException e) {
            LOG.warn("{}: migration {}: compacting the dropped backup span of range {} failed ({}); its space comes "
                    + "back with the store's own compactions", mc.self(), m.id(), r.id(), e.toString());
        }
        LOG.info("{}: migration {}: {} backs up range {} {} in this node's place: dropped the {} streams of its "
                + "backup copy and compacted the span in {} ms", mc.self(), m.id(), m.target(), r.id(), r.span(), n,
                (System.nanoTime() - t) / 1_000_000);
    }

    /**
     * Waits until this node's metadata holds everything the leader committed: a node that restarted replays its
     * metadata log and is told of an old add-backup again, while a later fill may have made it the range's backup once
     * more; only a view that current can say the span is not wanted here.
     */
    private boolean current(MigrationInfo m, RangeDescriptor r) {
        Duration timeout = mc.settings().metadataTimeout();
        try {
            mc.metadata().awaitCommitted(timeout).get(timeout.toMillis() * 3, TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("{}: migration {}: keeps its replaced backup copy of range {} {}: its metadata is not known to be "
                    + "current ({})", mc.self(), m.id(), r.id(), r.span(), e.toString());
        }
        return false;
    }

    /**
     * Why the span must stay in this node's backup copy now, or {@code null}: a range over it is owned or backed up
     * here, or a backup fill into this node copies it.
     *
     * @param s    the metadata as this node has it now
     * @param self this node
     * @param span the replaced range as it was
     * @return the reason, or {@code null}
     */
    static String keptBy(MetaState s, String self, RangeDescriptor span) {
        if (Migrations.keptHere(s.ranges(), true, span, self)) {
            return "it owns or backs up a range over the span";
        }
        for (RangeDescriptor r : s.ranges()) {
            MigrationInfo fill = s.migrationOf(r.id());
            if (fill != null && fill.backup() && fill.target().equals(self) && Migrations.overlaps(r, span)) {
                return "backup fill " + fill.id() + " into this node copies " + r;
            }
        }
        return null;
    }
}
