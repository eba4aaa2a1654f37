package org.autodisk.node.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.net.WriteBurst;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link LedgerStore} on disk: every ledger of the log node in one journal of segment files, one fsync per group of
 * changes of all ledgers ({@link JournalWriter}), an index in memory rebuilt at start-up by reading the journal
 * ({@link JournalReplay}), and segments deleted once every entry in them is truncated. A change is checked against
 * what was accepted before (so appends can be pipelined) and answered once durable; after a disk error the store
 * takes nothing more until it is opened again ({@link ReopeningLedgerStore}), so that no later append can leave a hole
 * behind a failed one.
 */
final class JournalLedgerStore implements LedgerStore, JournalWriter.Sink {

    private static final Logger LOG = LoggerFactory.getLogger(JournalLedgerStore.class);

    private final String nodeId;
    private final JournalSegments segments;
    private final Map<Long, JournalLedger> ledgers;
    /** Segment to the last entry of each ledger it holds. */
    private final TreeMap<Long, Map<Long, Long>> contents;
    private final JournalWriter writer;
    private volatile IOException failure;

    private JournalLedgerStore(String nodeId, JournalSegments segments, JournalReplay replayed) {
        this.nodeId = nodeId;
        this.segments = segments;
        this.ledgers = replayed.ledgers();
        this.contents = replayed.contents();
        this.writer = new JournalWriter(nodeId, segments, this);
    }

    /**
     * Opens the journal in a directory, reading what it holds.
     *
     * @param nodeId  the log node, for messages
     * @param dir     the journal's directory
     * @param options segment size, preallocation, fault hook
     * @return the store
     * @throws IOException if the journal cannot be read, or is damaged other than by a torn last write
     */
    static JournalLedgerStore open(String nodeId, Path dir, SegmentOptions options) throws IOException {
        JournalSegments segments = new JournalSegments(dir, options);
        long t0 = System.nanoTime();
        JournalReplay replayed = JournalReplay.read(nodeId, segments);
        segments.after(replayed.newest());
        JournalLedgerStore store = new JournalLedgerStore(nodeId, segments, replayed);
        LOG.info("{}: journal in {}: {} ledgers, {} entries held, read in {} ms", nodeId, dir,
                replayed.ledgers().size(), replayed.entries(), (System.nanoTime() - t0) / 1_000_000);
        store.writer.start();
        return store;
    }

    @Override
    public CompletableFuture<Long> append(long ledgerId, long fragmentStart, boolean recovery,
            List<LedgerEntry> entries) {
        JournalOp op;
        synchronized (this) {
            JournalLedger l = ledgers.computeIfAbsent(ledgerId, id -> new JournalLedger());
            LedgerException refused = refusal(ledgerId, l, fragmentStart, recovery, entries);
            if (refused != null) {
                return CompletableFuture.failedFuture(refused);
            }
            List<LedgerEntry> fresh = fresh(l, entries);
            fresh.forEach(e -> l.pending.put(e.entryId(), e));
            op = new JournalOp(JournalFrame.ENTRY, ledgerId, fresh, 0, 0);
            // queued under the lock: the journal writes changes in the order they were accepted, so a failed group
            // can never leave a hole under a later one that succeeded
            writer.submit(op);
        }
        return op.future;
    }

    @Override
    public String failure() {
        IOException f = failure;
        return f == null ? null : "its journal failed (" + f.getMessage() + ") and takes no writes until its disk "
                + "takes writes again";
    }

    private LedgerException refusal(long ledgerId, JournalLedger l, long fragmentStart, boolean recovery,
            List<LedgerEntry> entries) {
        if (failure != null) {
            return unavailable("writing ledger " + ledgerId);
        }
        if (l.fenced && !recovery) {
            return new LedgerException(LedgerException.Kind.FENCED, "log node " + nodeId + ": ledger " + ledgerId
                    + " is fenced: a new writer recovers it");
        }
        String problem = Appends.problem(ledgerId, fragmentStart, l.accepted(), entries);
        return problem == null ? null : new LedgerException(LedgerException.Kind.GAP, "log node " + nodeId + ": "
                + problem);
    }

    private LedgerException unavailable(String what) {
        return new LedgerException(LedgerException.Kind.UNAVAILABLE, "log node " + nodeId + ": disk error "
                + what + " (" + failure.getMessage() + "); the journal takes no more writes until its disk "
                + "takes writes again");
    }

    /** The entries not held yet; one held already must carry the same content. */
    private List<LedgerEntry> fresh(JournalLedger l, List<LedgerEntry> entries) {
        List<LedgerEntry> out = new ArrayList<>(entries.size());
        for (LedgerEntry e : entries) {
            if (e.entryId() < l.truncatedBelow) {
                continue;
            }
            LedgerEntry had = held(l, e.entryId());
            if (had == null) {
                out.add(e);
            } else if (!had.sameAs(e)) {
                throw new IllegalStateException("log node " + nodeId + ": " + e + " arrived with another content");
            }
        }
        return out;
    }

    private LedgerEntry held(JournalLedger l, long entryId) {
        LedgerEntry pending = l.pending.get(entryId);
        if (pending != null) {
            return pending;
        }
        Long at = l.positions.get(entryId);
        return at == null ? null : readEntry(at);
    }

    private LedgerEntry readEntry(long packed) {
        try {
            return segments.readAt(JournalLedger.segment(packed), JournalLedger.offset(packed)).entry();
        } catch (IOException | RuntimeException e) {
            throw new LedgerException(LedgerException.Kind.UNAVAILABLE, "log node " + nodeId
                    + ": cannot read the journal: " + e.getMessage());
        }
    }

    @Override
    public CompletableFuture<Long> fence(long ledgerId) {
        JournalOp op;
        synchronized (this) {
            if (failure != null) {
                return CompletableFuture.failedFuture(unavailable("fencing ledger " + ledgerId));
            }
            ledgers.computeIfAbsent(ledgerId, id -> new JournalLedger()).fenced = true;
            op = new JournalOp(JournalFrame.FENCE, ledgerId, List.of(), 0, 0);
            writer.submit(op);
        }
        return op.future;
    }

    @Override
    public CompletableFuture<Long> truncate(long ledgerId, long below) {
        JournalOp op;
        synchronized (this) {
            if (failure != null) {
                return CompletableFuture.failedFuture(unavailable("truncating ledger " + ledgerId));
            }
            // every entry in a segment older than the one being written is published, so within this last
            long last = lastEntry(ledgerId);
            op = new JournalOp(JournalFrame.TRUNCATE, ledgerId, List.of(), Math.min(below, last + 1), last);
            writer.submit(op);
        }
        return op.future;
    }

    @Override
    public List<LedgerEntry> read(long ledgerId, long from, int max) {
        List<Long> at = new ArrayList<>();
        JournalLedger l;
        synchronized (this) {
            l = ledgers.get(ledgerId);
            for (long id = from; l != null && at.size() < max && l.positions.containsKey(id); id++) {
                at.add(l.positions.get(id));
            }
        }
        List<LedgerEntry> out = new ArrayList<>(at.size());
        for (long packed : at) {
            try {
                out.add(readEntry(packed));
            } catch (LedgerException e) {
                if (out.isEmpty() || !truncatedMeanwhile(l, from + out.size())) {
                    throw e;
                }
                break; // truncated and its segment deleted meanwhile: what was read is still consecutive
            }
        }
        return out;
    }

    private synchronized boolean truncatedMeanwhile(JournalLedger l, long entryId) {
        return entryId < l.truncatedBelow;
    }

    @Override
    public synchronized long lastEntry(long ledgerId) {
        JournalLedger l = ledgers.get(ledgerId);
        return l == null ? 0 : l.last;
    }

    @Override
    public synchronized boolean fenced(long ledgerId) {
        JournalLedger l = ledgers.get(ledgerId);
        return l != null && l.fenced;
    }

    @Override
    public Stats stats() {
        return new Stats(writer.entries(), writer.syncs());
    }

    @Override
    public synchronized Map<Long, long[]> state() {
        Map<Long, long[]> out = new HashMap<>();
        ledgers.forEach((id, l) -> {
            if (l.fenced || l.truncatedBelow > 0) {
                out.put(id, l.state());
            }
        });
        return out;
    }

    @Override
    public void durable(List<JournalOp> group) {
        List<Long> reclaim;
        synchronized (this) {
            group.forEach(this::publish);
            reclaim = reclaimable();
            reclaim.forEach(contents::remove);
        }
        // the answers to the group leave together, one task per connection
        WriteBurst.run(() -> group.forEach(op -> op.future.complete(lastEntry(op.ledgerId))));
        for (long segment : reclaim) {
            try {
                segments.delete(segment);
                LOG.debug("{}: journal segment {} deleted: every entry in it is truncated", nodeId, segment);
            } catch (IOException e) {
                LOG.warn("{}: cannot delete journal segment {}: {}", nodeId, segment, e.toString());
            }
        }
    }

    private void publish(JournalOp op) {
        JournalLedger l = ledgers.computeIfAbsent(op.ledgerId, id -> new JournalLedger());
        contents.computeIfAbsent(op.segment, s -> new HashMap<>());
        if (op.type == JournalFrame.TRUNCATE) {
            l.truncate(op.value);
        }
        for (int i = 0; i < op.entries.size(); i++) {
            long id = op.entries.get(i).entryId();
            l.pending.remove(id);
            l.held(id, JournalLedger.pack(op.segment, op.offsets[i]));
            contents.get(op.segment).merge(op.ledgerId, id, Math::max);
        }
    }

    /** Segments, other than the one being written, in which every entry is truncated. */
    private List<Long> reclaimable() {
        List<Long> out = new ArrayList<>();
        contents.forEach((segment, lasts) -> {
            if (segment != segments.current() && lasts.entrySet().stream().allMatch(e -> {
                JournalLedger l = ledgers.get(e.getKey());
                return l != null && l.truncatedBelow > e.getValue();
            })) {
                out.add(segment);
            }
        });
        return out;
    }

    @Override
    public void failed(List<JournalOp> group, IOException e) {
        synchronized (this) {
            if (failure == null) {
                failure = e;
            }
            for (JournalOp op : group) {
                JournalLedger l = ledgers.get(op.ledgerId);
                op.entries.forEach(x -> l.pending.remove(x.entryId()));
            }
        }
        LedgerException refused = unavailable("writing to the journal");
        group.forEach(op -> op.future.completeExceptionally(refused));
    }

    @Override
    public void close() {
        writer.stopAndJoin();
        segments.close();
    }

    /**
     * After {@link #close()} of a journal stopped by a disk error: cuts what was written after the last successful
     * fsync, so that opening the journal again cannot take unsynced entries (answered as failed) for durable ones.
     *
     * @throws IOException if the segment cannot be cut
     */
    void cutUnsynced() throws IOException {
        segments.cutUnsynced();
    }
}
