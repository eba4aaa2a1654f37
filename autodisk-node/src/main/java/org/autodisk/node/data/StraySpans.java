package org.autodisk.node.data;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.LocalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams a data node holds of ranges the metadata places elsewhere, and their periodic sweep: what a crash leaves
 * between a change and its clean-up (a backup moved off this node, a move into it aborted while it was down, a
 * metadata snapshot that skipped the change that would have told it). A range's span in the store is stray when this
 * node neither owns the range nor takes part in a move of it; its span in the backup copy, when this node neither
 * owns, backs up nor fills it. A sweep decides only while this node is up, on a view of the metadata that holds every
 * change committed before it ({@link Metadata#awaitCommitted}), for a range no writer of this node writes and that the
 * sweep before found stray too, and looks at the metadata again under the store's own lock as it deletes: whoever may
 * write a span here (a move's or a fill's copy, a takeover, a ledger's entries) does so only after this node applied
 * the change that wants the span here, and under that lock, so after the deletion.
 */
final class StraySpans implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StraySpans.class);

    private final String self;
    private final Metadata metadata;
    private final LocalStore store;
    private final BackupStores backups;
    private final Predicate<RangeDescriptor> writerOver;
    private final Duration timeout;
    private final ScheduledExecutorService timer;
    /** The spans the last sweep found stray: one is deleted only when the next sweep finds it stray again. */
    private Set<String> suspects = Set.of();

    /**
     * Creates the sweep; {@link #start} runs it.
     *
     * @param self       this node
     * @param metadata   its metadata
     * @param store      its store
     * @param backups    its backup copy
     * @param writerOver whether a writer of this node writes a range's span (its log's slots)
     * @param timeout    how long a metadata change may take
     */
    StraySpans(String self, Metadata metadata, LocalStore store, BackupStores backups,
            Predicate<RangeDescriptor> writerOver, Duration timeout) {
        this.self = self;
        this.metadata = metadata;
        this.store = store;
        this.backups = backups;
        this.writerOver = writerOver;
        this.timeout = timeout;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(self + "-stray-sweep")
                .daemon().factory());
    }

    /**
     * Whether the store's span of a range is stray here: the node neither owns it nor copies it as a move's target,
     * and is the source of no move (a move's clean-up deletes the span itself, after a grace for the reads in flight;
     * a split after the cutover gives part of the span a range of its own that no migration names).
     *
     * @param s    the metadata
     * @param r    the range
     * @param self this node
     * @return whether the span may go
     */
    static boolean strayInStore(MetaState s, RangeDescriptor r, String self) {
        MigrationInfo m = s.migrationOf(r.id());
        boolean target = m != null && !m.backup() && m.target().equals(self);
        boolean source = s.migrations().stream().anyMatch(x -> !x.backup() && x.source().equals(self));
        return !r.owner().equals(self) && !target && !source;
    }

    /**
     * Whether the backup copy's span of a range is stray here: the node neither owns it (a promotion takes the range
     * over from the copy, and drops it once done), backs it up, nor fills it as a backup fill's target.
     *
     * @param s    the metadata
     * @param r    the range
     * @param self this node
     * @return whether the span may go
     */
    static boolean strayInCopy(MetaState s, RangeDescriptor r, String self) {
        MigrationInfo m = s.migrationOf(r.id());
        boolean filling = m != null && m.backup() && m.target().equals(self);
        return !r.owner().equals(self) && !r.backups().contains(self) && !filling;
    }

    /**
     * Sweeps every {@code periodMs} (0: never).
     *
     * @param periodMs the period
     */
    void start(long periodMs) {
        if (periodMs > 0) {
            timer.scheduleWithFixedDelay(this::sweepLogged, periodMs, periodMs, TimeUnit.MILLISECONDS);
        }
    }

    private void sweepLogged() {
        try {
            sweep();
        } catch (RuntimeException | Error e) { // anything thrown out would end the periodic sweep, unlogged
            LOG.warn("{}: sweep of stray spans failed, tried again at the next one: {}", self, e.toString());
        }
    }

    /**
     * Drops every stray span of the store and of the backup copy that holds streams and that the sweep before found
     * stray too, if this node is up and once its metadata holds every change committed before (a sweep that finds
     * nothing to drop commits nothing).
     *
     * @return how many streams it dropped; -1 when it did not sweep
     */
    long sweep() {
        MetaState s = metadata.current();
        if (!up(s)) {
            return -1;
        }
        Set<String> seen = new HashSet<>();
        List<Due> due = new ArrayList<>();
        for (RangeDescriptor r : s.ranges()) {
            if (strayInStore(s, r, self) && !writerOver.test(r)) {
                note(new Due(store, r, false), seen, due);
            }
            if (backups.opened() && strayInCopy(s, r, self)) {
                note(new Due(backups.copy(), r, true), seen, due);
            }
        }
        suspects = seen;
        if (due.isEmpty()) {
            return 0;
        }
        if (!current()) {
            return -1;
        }
        return due.stream().mapToLong(d -> drop(d.into(), d.range(), d.copy())).sum();
    }

    /** A stray span of the store or of the backup copy. */
    private record Due(LocalStore into, RangeDescriptor range, boolean copy) {
    }

    /**
     * Notes a stray span that holds streams; it is due if the sweep before noted it too, with the same span (a
     * request that came in before a change had that long to end).
     */
    private void note(Due d, Set<String> seen, List<Due> due) {
        RangeDescriptor r = d.range();
        if (d.into().scan(r.low(), r.high(), 1, Long.MAX_VALUE).entries().isEmpty()) {
            return;
        }
        String key = (d.copy() ? "copy " : "store ") + r.id() + " " + r.span();
        seen.add(key);
        if (suspects.contains(key)) {
            due.add(d);
        }
    }

    /** Deletes a range's span if it is stray as the metadata says under the store's lock; then frees its space. */
    private long drop(LocalStore into, RangeDescriptor r, boolean copy) {
        long n = into.deleteRangeIf(r.low(), r.high(), () -> stillStray(r, copy));
        if (n == 0) {
            return 0;
        }
        into.makeDurable();
        try {
            into.reclaim(r.low(), r.high());
        } catch (RuntimeException e) {
            LOG.warn("{}: compacting the dropped span of range {} failed ({}); its space comes back with the store's "
                    + "own compactions", self, r.id(), e.toString());
        }
        LOG.info("{}: dropped the {} streams its {} held of range {} {} (owner {}, backups {}): a crash between a "
                + "change of the range and its clean-up left them here", self, n, copy ? "backup copy" : "store",
                r.id(), r.span(), r.owner(), r.backups());
        return n;
    }

    /** Whether the range still has the span it had and its span is stray here, as the metadata says now. */
    private boolean stillStray(RangeDescriptor was, boolean copy) {
        MetaState s = metadata.current();
        RangeDescriptor r = s.range(was.id());
        return up(s) && r != null && Arrays.equals(r.low(), was.low()) && Arrays.equals(r.high(), was.high())
                && (copy ? strayInCopy(s, r, self) : strayInStore(s, r, self));
    }

    private boolean up(MetaState s) {
        return s.bootstrapped() && s.member(self) != null && s.member(self).state() == MemberState.UP;
    }

    /** Whether this node's metadata holds every change committed before now ({@link Metadata#awaitCommitted}). */
    private boolean current() {
        try {
            metadata.awaitCommitted(timeout).get(timeout.toMillis() * 3, TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.info("{}: no sweep of stray spans now: its metadata is not known to be current ({})", self,
                    e.toString());
        }
        return false;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            if (!timer.awaitTermination(10, TimeUnit.SECONDS)) { // a deletion must not run on a closed store
                LOG.warn("{}: the sweep of stray spans did not stop within 10 s", self);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
