package org.autodisk.node.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * {@link LedgerStore} in memory: every append and fence is durable at once (it survives a simulated crash of the log
 * node, which only loses what the node kept beside it); {@link #failWrites} makes appends and fences fail as a disk
 * error would.
 */
public final class InMemoryLedgerStore implements LedgerStore {

    private final String nodeId;
    private final Map<Long, NavigableMap<Long, LedgerEntry>> ledgers = new HashMap<>();
    private final Set<Long> fenced = new HashSet<>();
    /** The last entry of each truncated ledger (truncation does not lower it). */
    private final Map<Long, Long> lasts = new HashMap<>();
    private final Map<Long, Long> truncatedBelow = new HashMap<>();
    private boolean failWrites;
    private long written;

    InMemoryLedgerStore(String nodeId) {
        this.nodeId = nodeId;
    }

    /**
     * Fault hook: makes the following appends and fences fail (or work again).
     *
     * @param fail whether they fail
     */
    public synchronized void failWrites(boolean fail) {
        failWrites = fail;
    }

    @Override
    public synchronized String failure() {
        return failWrites ? "its writes fail (fault hook)" : null;
    }

    @Override
    public synchronized CompletableFuture<Long> append(long ledgerId, long fragmentStart, boolean recovery,
            List<LedgerEntry> entries) {
        if (fenced.contains(ledgerId) && !recovery) {
            return failed(LedgerException.Kind.FENCED, "log node " + nodeId + ": ledger " + ledgerId
                    + " is fenced: a new writer recovers it");
        }
        if (failWrites) {
            return failed(LedgerException.Kind.UNAVAILABLE, "log node " + nodeId + ": disk error writing ledger "
                    + ledgerId);
        }
        NavigableMap<Long, LedgerEntry> held = ledgers.computeIfAbsent(ledgerId, id -> new TreeMap<>());
        String problem = Appends.problem(ledgerId, fragmentStart, lastEntry(ledgerId), entries);
        if (problem != null) {
            return failed(LedgerException.Kind.GAP, "log node " + nodeId + ": " + problem);
        }
        long below = truncatedBelow.getOrDefault(ledgerId, 0L);
        for (LedgerEntry e : entries) {
            LedgerEntry had = held.get(e.entryId());
            if (had != null && !had.sameAs(e)) {
                throw new IllegalStateException("log node " + nodeId + ": " + e + " arrived with another content");
            }
        }
        for (LedgerEntry e : entries) {
            if (e.entryId() >= below && held.putIfAbsent(e.entryId(), e) == null) {
                written++;
            }
        }
        return CompletableFuture.completedFuture(lastEntry(ledgerId));
    }

    private static CompletableFuture<Long> failed(LedgerException.Kind kind, String message) {
        return CompletableFuture.failedFuture(new LedgerException(kind, message));
    }

    @Override
    public synchronized CompletableFuture<Long> fence(long ledgerId) {
        if (failWrites) {
            return failed(LedgerException.Kind.UNAVAILABLE, "log node " + nodeId + ": disk error fencing ledger "
                    + ledgerId);
        }
        fenced.add(ledgerId);
        return CompletableFuture.completedFuture(lastEntry(ledgerId));
    }

    @Override
    public synchronized CompletableFuture<Long> truncate(long ledgerId, long below) {
        long last = lastEntry(ledgerId);
        long upTo = Math.min(below, last + 1);
        lasts.merge(ledgerId, last, Math::max);
        truncatedBelow.merge(ledgerId, upTo, Math::max);
        NavigableMap<Long, LedgerEntry> held = ledgers.get(ledgerId);
        if (held != null) {
            held.headMap(upTo).clear();
        }
        return CompletableFuture.completedFuture(last);
    }

    @Override
    public synchronized List<LedgerEntry> read(long ledgerId, long from, int max) {
        NavigableMap<Long, LedgerEntry> held = ledgers.getOrDefault(ledgerId, new TreeMap<>());
        List<LedgerEntry> out = new ArrayList<>();
        for (long id = from; out.size() < max && held.containsKey(id); id++) {
            out.add(held.get(id));
        }
        return out;
    }

    @Override
    public synchronized long lastEntry(long ledgerId) {
        NavigableMap<Long, LedgerEntry> held = ledgers.get(ledgerId);
        long last = held == null || held.isEmpty() ? 0 : held.lastKey();
        return Math.max(last, lasts.getOrDefault(ledgerId, 0L));
    }

    @Override
    public synchronized Stats stats() {
        return new Stats(written, 0);
    }

    @Override
    public synchronized boolean fenced(long ledgerId) {
        return fenced.contains(ledgerId);
    }

    /**
     * Returns every entry held, for the simulation's invariants.
     *
     * @return ledger id to its entries by id
     */
    public synchronized Map<Long, NavigableMap<Long, LedgerEntry>> contents() {
        Map<Long, NavigableMap<Long, LedgerEntry>> copy = new HashMap<>();
        ledgers.forEach((id, held) -> copy.put(id, new TreeMap<>(held)));
        return copy;
    }

    @Override
    public void close() {
    }
}
