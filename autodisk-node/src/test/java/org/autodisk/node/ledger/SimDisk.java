package org.autodisk.node.ledger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * A simulated log node's disk: its durable ledgers ({@link InMemoryLedgerStore}, or the real journal in a directory,
 * closed by a crash and read again by a restart) and fault hooks: every write fails ({@link #failWrites}), the next
 * few appends fail ({@link #failNextAppends}), or the fsync stalls ({@link #stall}): appends and fences wait, in
 * order, until {@link #release} makes them durable or fails them all as a disk error does (nothing of them is kept).
 * Every answer is given on the simulation's thread: a journal's is waited for.
 */
final class SimDisk implements LedgerStore {

    private final String nodeId;
    private final InMemoryLedgerStore memory;
    private final Path journal;
    private LedgerStore store;
    private final Set<Long> ledgerIds = new TreeSet<>();
    private Map<Long, NavigableMap<Long, LedgerEntry>> atCrash;
    private boolean failWrites;
    private boolean fsyncFails;
    private int failNext;
    private List<Runnable> stalled;

    private SimDisk(String nodeId, InMemoryLedgerStore memory, Path journal) {
        this.nodeId = nodeId;
        this.memory = memory;
        this.journal = journal;
        this.store = memory != null ? memory : openJournal();
    }

    /** A disk whose ledgers are in memory (they survive a crash of the log node). */
    static SimDisk inMemory(String nodeId) {
        return new SimDisk(nodeId, LedgerStore.inMemory(nodeId), null);
    }

    /** A disk holding the real journal in a directory: a crash closes it, a restart reads it again. */
    static SimDisk journal(String nodeId, Path dir) {
        return new SimDisk(nodeId, null, dir);
    }

    private LedgerStore openJournal() {
        try {
            return JournalLedgerStore.open(nodeId, journal, SegmentOptions.defaults().withSegmentBytes(1 << 20)
                    .withPreallocateBytes(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fault hook: every append and fence fails as a disk error does (or works again). */
    void failWrites(boolean fail) {
        if (memory != null) {
            memory.failWrites(fail);
        } else {
            failWrites = fail;
        }
    }

    /** Fault hook: the next {@code n} appends fail as a disk error does; later ones work. */
    void failNextAppends(int n) {
        failNext = n;
    }

    /** Fault hook: the fsync stalls; appends and fences wait until {@link #release}. */
    void stall() {
        if (stalled == null) {
            stalled = new ArrayList<>();
        }
    }

    /**
     * Ends a stall: the waiting appends and fences become durable in order, or all fail as a disk error.
     *
     * @param fail whether the stalled fsync fails
     */
    void release(boolean fail) {
        List<Runnable> waiting = stalled == null ? List.of() : stalled;
        stalled = null;
        fsyncFails = fail;
        waiting.forEach(Runnable::run);
        fsyncFails = false;
    }

    /** The log node crashed: a journal is closed (everything it answered is durable). */
    void crash() {
        stalled = null;
        if (memory == null) {
            atCrash = contents();
            store.close();
        }
    }

    /** The log node restarted: a journal is read again from its files. */
    void restart() {
        if (memory == null) {
            store = openJournal();
            atCrash = null;
        }
    }

    @Override
    public CompletableFuture<Long> append(long ledgerId, long fragmentStart, boolean recovery,
            List<LedgerEntry> entries) {
        ledgerIds.add(ledgerId);
        return whenDurable(() -> {
            if (fsyncFails || failWrites || failNext > 0) {
                failNext = fsyncFails || failWrites ? failNext : failNext - 1;
                return CompletableFuture.failedFuture(new LedgerException(LedgerException.Kind.UNAVAILABLE,
                        "log node " + nodeId + ": simulated disk error writing ledger " + ledgerId));
            }
            return store.append(ledgerId, fragmentStart, recovery, entries);
        });
    }

    @Override
    public CompletableFuture<Long> fence(long ledgerId) {
        ledgerIds.add(ledgerId);
        return whenDurable(() -> fsyncFails || failWrites ? CompletableFuture.failedFuture(
                new LedgerException(LedgerException.Kind.UNAVAILABLE, "log node " + nodeId
                        + ": simulated disk error fencing ledger " + ledgerId)) : store.fence(ledgerId));
    }

    /** Runs a write now, or once the stall ends; its answer completes on the simulation's thread. */
    private CompletableFuture<Long> whenDurable(Supplier<CompletableFuture<Long>> write) {
        if (stalled == null) {
            return settled(write.get());
        }
        CompletableFuture<Long> later = new CompletableFuture<>();
        stalled.add(() -> settled(write.get()).whenComplete((v, e) -> {
            if (e == null) {
                later.complete(v);
            } else {
                later.completeExceptionally(e);
            }
        }));
        return later;
    }

    private static CompletableFuture<Long> settled(CompletableFuture<Long> answer) {
        try {
            return CompletableFuture.completedFuture(answer.join());
        } catch (CompletionException e) {
            return CompletableFuture.failedFuture(LedgerPeersSupport.cause(e));
        }
    }

    @Override
    public CompletableFuture<Long> truncate(long ledgerId, long below) {
        return settled(store.truncate(ledgerId, below));
    }

    @Override
    public List<LedgerEntry> read(long ledgerId, long from, int max) {
        if (atCrash == null) {
            return store.read(ledgerId, from, max);
        }
        NavigableMap<Long, LedgerEntry> held = atCrash.getOrDefault(ledgerId, new TreeMap<>());
        List<LedgerEntry> out = new ArrayList<>();
        for (long id = from; out.size() < max && held.containsKey(id); id++) {
            out.add(held.get(id));
        }
        return out;
    }

    @Override
    public long lastEntry(long ledgerId) {
        return store.lastEntry(ledgerId);
    }

    @Override
    public boolean fenced(long ledgerId) {
        return store.fenced(ledgerId);
    }

    @Override
    public Stats stats() {
        return store.stats();
    }

    /**
     * Returns every entry held (a crashed journal: what it held when it crashed), for the invariants.
     *
     * @return ledger id to its entries by id
     */
    Map<Long, NavigableMap<Long, LedgerEntry>> contents() {
        if (memory != null) {
            return memory.contents();
        }
        if (atCrash != null) {
            return atCrash;
        }
        Map<Long, NavigableMap<Long, LedgerEntry>> out = new HashMap<>();
        for (long id : ledgerIds) {
            NavigableMap<Long, LedgerEntry> held = new TreeMap<>();
            for (long e = 1; e <= store.lastEntry(id); e++) {
                store.read(id, e, 1).forEach(x -> held.put(x.entryId(), x));
            }
            out.put(id, held);
        }
        return out;
    }

    @Override
    public void close() {
        store.close();
    }
}
