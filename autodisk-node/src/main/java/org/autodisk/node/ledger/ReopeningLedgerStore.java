package org.autodisk.node.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.autodisk.node.store.DiskProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log node's journal, opened again by itself once a disk error stopped it and the disk takes writes again (as a
 * BookKeeper bookie goes back from read-only to writable): a journal that failed takes nothing more, so that no later
 * append can leave a hole behind a failed one; every few seconds this store then writes and fsyncs a probe file
 * beside the segments, and once that succeeds it closes the failed journal and opens it again, which reads the
 * segments as a restart does (the ledgers' entries, fences and truncations as they were made durable), after cutting
 * what was written since the last successful fsync (never answered as durable, though the page cache may show it).
 * Until then the failed journal still answers reads of what it holds.
 */
final class ReopeningLedgerStore implements LedgerStore {

    private static final Logger LOG = LoggerFactory.getLogger(ReopeningLedgerStore.class);
    private static final String PROBE = "writable-probe";
    private static final int PROBE_BYTES = 64 << 10;
    /** How often a failed journal is tried again. */
    static final Duration EVERY = Duration.ofSeconds(5);

    private final String nodeId;
    private final Path dir;
    private final SegmentOptions options;
    private final ScheduledExecutorService timer;
    /** The journal open now, with the counts of those before it: swapped as one. */
    private volatile Opened current;
    private boolean closed;

    /** A journal, and the entries and syncs counted by the ones open before it. */
    private record Opened(JournalLedgerStore journal, long entriesBefore, long syncsBefore, int reopened) {
    }

    private ReopeningLedgerStore(String nodeId, Path dir, SegmentOptions options, JournalLedgerStore first) {
        this.nodeId = nodeId;
        this.dir = dir;
        this.options = options;
        this.current = new Opened(first, 0, 0, 0);
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(nodeId + "-journal-reopen")
                .daemon().factory());
    }

    /**
     * Opens the journal, and looks at the given interval whether it failed and can be opened again.
     *
     * @param nodeId  the log node
     * @param dir     the journal's directory
     * @param options its segments
     * @param every   how often a failed journal is tried again
     * @return the store
     * @throws IOException if the journal cannot be read, or is damaged other than by a torn last write
     */
    static ReopeningLedgerStore open(String nodeId, Path dir, SegmentOptions options, Duration every)
            throws IOException {
        ReopeningLedgerStore store = new ReopeningLedgerStore(nodeId, dir, options,
                JournalLedgerStore.open(nodeId, dir, options));
        store.timer.scheduleWithFixedDelay(store::reopenIfFailed, every.toMillis(), every.toMillis(),
                TimeUnit.MILLISECONDS);
        return store;
    }

    private void reopenIfFailed() {
        try {
            Opened was = current;
            String why = was.journal().failure();
            if (why != null && writable()) {
                reopen(was, why);
            }
        } catch (RuntimeException e) { // the task goes on
            LOG.warn("{}: opening the journal again failed; trying later", nodeId, e);
        }
    }

    private synchronized void reopen(Opened was, String why) {
        if (closed) {
            return;
        }
        Stats before = was.journal().stats();
        was.journal().close();
        try {
            was.journal().cutUnsynced();
            current = new Opened(JournalLedgerStore.open(nodeId, dir, options), was.entriesBefore() + before.entries(),
                    was.syncsBefore() + before.syncs(), was.reopened() + 1);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: the journal's disk takes writes again but the journal could not be opened again; trying "
                    + "later: {}", nodeId, e.toString());
            return; // the closed journal still says it failed, and refuses every change
        }
        LOG.info("{}: the journal's disk takes writes again: the journal was opened again ({} time(s)) after {}",
                nodeId, current.reopened(), why);
    }

    /** Whether a probe file can be written and made durable in the journal's directory (through the fault hook). */
    private boolean writable() {
        try {
            // at least what the journal's next write takes: its preallocation step
            Path probe = dir.resolve(PROBE);
            DiskProbe.write(probe, (int) Math.max(PROBE_BYTES, options.preallocateBytes()),
                    () -> options.faultHook().beforeWrite(PROBE), () -> options.faultHook().beforeSync(probe));
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: the journal's disk takes no writes yet: {}", nodeId, e.toString());
            return false;
        }
    }

    /**
     * Returns how many times the journal was opened again after a disk error.
     *
     * @return the count
     */
    int reopened() {
        return current.reopened();
    }

    @Override
    public CompletableFuture<Long> append(long ledgerId, long fragmentStart, boolean recovery,
            List<LedgerEntry> entries) {
        return current.journal().append(ledgerId, fragmentStart, recovery, entries);
    }

    @Override
    public CompletableFuture<Long> fence(long ledgerId) {
        return current.journal().fence(ledgerId);
    }

    @Override
    public String failure() {
        return current.journal().failure();
    }

    @Override
    public CompletableFuture<Long> truncate(long ledgerId, long below) {
        return current.journal().truncate(ledgerId, below);
    }

    @Override
    public List<LedgerEntry> read(long ledgerId, long from, int max) {
        return current.journal().read(ledgerId, from, max);
    }

    @Override
    public long lastEntry(long ledgerId) {
        return current.journal().lastEntry(ledgerId);
    }

    @Override
    public boolean fenced(long ledgerId) {
        return current.journal().fenced(ledgerId);
    }

    /** The counts since start, over every time the journal was opened. */
    @Override
    public Stats stats() {
        Opened now = current;
        Stats s = now.journal().stats();
        return new Stats(now.entriesBefore() + s.entries(), now.syncsBefore() + s.syncs());
    }

    @Override
    public void close() {
        timer.shutdown(); // an opening under way ends first (under the lock): interrupting it would fail its reads
        synchronized (this) {
            closed = true;
            current.journal().close();
        }
    }
}
