package org.autodisk.node.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log node's journal, opened again by itself once a disk error stopped it and the disk takes writes again (as a
 * BookKeeper bookie goes back from read-only to writable): a journal that failed takes nothing more, so that no later
 * append can leave a hole behind a failed one; every few seconds this store then writes and fsyncs a probe file
 * beside the segments, and once that succeeds it closes the failed journal and opens it again, which reads the
 * segments exactly as a restart does (a torn last write cut, the ledgers' entries, fences and truncations as they
 * were made durable). Until then the failed journal still answers reads of what it holds.
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
    private volatile JournalLedgerStore current;
    private long entriesBefore;
    private long syncsBefore;
    private volatile int reopened;
    private boolean closed;

    private ReopeningLedgerStore(String nodeId, Path dir, SegmentOptions options, JournalLedgerStore first) {
        this.nodeId = nodeId;
        this.dir = dir;
        this.options = options;
        this.current = first;
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
        JournalLedgerStore failed = current;
        String why = failed.failure();
        if (why == null || !writable()) {
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            Stats before = failed.stats();
            failed.close();
            try {
                current = JournalLedgerStore.open(nodeId, dir, options);
            } catch (IOException | RuntimeException e) {
                LOG.warn("{}: the journal takes writes again but could not be opened again; trying later: {}", nodeId,
                        e.toString());
                return; // the closed journal still says it failed, and refuses every change
            }
            entriesBefore += before.entries();
            syncsBefore += before.syncs();
            reopened++;
        }
        LOG.info("{}: the journal's disk takes writes again: the journal was opened again ({} time(s)) after {}",
                nodeId, reopened, why);
    }

    /** Whether a probe file can be written and made durable in the journal's directory (through the fault hook). */
    private boolean writable() {
        Path probe = dir.resolve(PROBE);
        try {
            options.faultHook().beforeWrite(PROBE);
            try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer zeros = ByteBuffer.allocate(PROBE_BYTES);
                while (zeros.hasRemaining()) {
                    ch.write(zeros);
                }
                options.faultHook().beforeSync(probe);
                ch.force(true);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: the journal's disk takes no writes yet: {}", nodeId, e.toString());
            return false;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException e) {
                LOG.debug("{}: removing {}: {}", nodeId, probe, e.toString());
            }
        }
    }

    /**
     * Returns how many times the journal was opened again after a disk error.
     *
     * @return the count
     */
    int reopened() {
        return reopened;
    }

    @Override
    public CompletableFuture<Long> append(long ledgerId, long fragmentStart, boolean recovery,
            List<LedgerEntry> entries) {
        return current.append(ledgerId, fragmentStart, recovery, entries);
    }

    @Override
    public CompletableFuture<Long> fence(long ledgerId) {
        return current.fence(ledgerId);
    }

    @Override
    public String failure() {
        return current.failure();
    }

    @Override
    public CompletableFuture<Long> truncate(long ledgerId, long below) {
        return current.truncate(ledgerId, below);
    }

    @Override
    public List<LedgerEntry> read(long ledgerId, long from, int max) {
        return current.read(ledgerId, from, max);
    }

    @Override
    public long lastEntry(long ledgerId) {
        return current.lastEntry(ledgerId);
    }

    @Override
    public boolean fenced(long ledgerId) {
        return current.fenced(ledgerId);
    }

    /** The counts since start, over every time the journal was opened. */
    @Override
    public synchronized Stats stats() {
        Stats now = current.stats();
        return new Stats(entriesBefore + now.entries(), syncsBefore + now.syncs());
    }

    @Override
    public void close() {
        timer.shutdown(); // an opening under way ends first (under the lock): interrupting it would fail its reads
        synchronized (this) {
            closed = true;
            current.close();
        }
    }
}
