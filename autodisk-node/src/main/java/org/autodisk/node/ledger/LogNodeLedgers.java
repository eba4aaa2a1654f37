package org.autodisk.node.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The ledgers of one log node as its peers see them: appends, fences and reads go to its {@link LedgerStore}, and it
 * remembers each ledger's last acknowledged entry as its writer reports it (in memory: after a restart, only what a
 * writer reports again or the metadata's close tells), so that catching backups up never applies an entry that
 * was not acknowledged. It also remembers when it last took an append or a lease confirmation of each ledger from its
 * writer (in memory: after a restart, its own start counts instead), and answers a fence with how long ago that was:
 * the writer's lease through this log node ran out at most a lease after it.
 */
public final class LogNodeLedgers {

    private final LedgerStore store;
    private final Map<Long, Long> confirmed = new ConcurrentHashMap<>();
    private final Map<Long, Long> lastTaken = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final long started;

    /**
     * Wraps a store, on the system's monotonic clock.
     *
     * @param store the log node's durable ledgers
     */
    public LogNodeLedgers(LedgerStore store) {
        this(store, System::nanoTime);
    }

    /**
     * Wraps a store.
     *
     * @param store the log node's durable ledgers
     * @param clock monotonic nanoseconds (a scripted clock in the simulation)
     */
    public LogNodeLedgers(LedgerStore store, LongSupplier clock) {
        this.store = store;
        this.clock = clock;
        this.started = clock.getAsLong();
    }

    /**
     * Appends entries (see {@link LedgerPeers#append}).
     *
     * @param ledgerId      the ledger
     * @param fragmentStart the first entry of this log node's fragment
     * @param recovery      whether a recovery writes them back
     * @param lac           the writer's last acknowledged entry
     * @param entries       the entries
     * @return the last durable entry
     */
    public CompletableFuture<Long> append(long ledgerId, long fragmentStart, boolean recovery, long lac,
            List<LedgerEntry> entries) {
        if (!recovery) {
            taken(ledgerId);
            if (!store.fenced(ledgerId)) {
                confirmed.merge(ledgerId, lac, Math::max);
            }
        }
        return store.append(ledgerId, fragmentStart, recovery, entries);
    }

    /**
     * Notes that the writer was heard; always before the fence is checked, so that a fence durable later sees it.
     */
    private void taken(long ledgerId) {
        lastTaken.put(ledgerId, clock.getAsLong());
    }

    /**
     * Fences a ledger.
     *
     * @param ledgerId the ledger
     * @return the last entry held and how long its writer had been quiet here, once the fence is durable
     */
    public CompletableFuture<LedgerPeers.Fenced> fence(long ledgerId) {
        return store.fence(ledgerId).thenApply(last -> new LedgerPeers.Fenced(last, quietMillis(ledgerId)));
    }

    private long quietMillis(long ledgerId) {
        long since = Math.max(started, lastTaken.getOrDefault(ledgerId, started));
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(clock.getAsLong() - since));
    }

    /**
     * Confirms a writer's lease: which of its ledgers are fenced here (the others were not when asked).
     *
     * @param ledgerIds the ledgers
     * @return those fenced
     */
    public List<Long> confirm(List<Long> ledgerIds) {
        List<Long> fenced = new ArrayList<>();
        for (long id : ledgerIds) {
            taken(id);
            if (store.fenced(id)) {
                fenced.add(id);
            }
        }
        return fenced;
    }

    /**
     * Reads entries.
     *
     * @param ledgerId the ledger
     * @param from     the first entry
     * @param max      at most this many
     * @return the consecutive entries held from {@code from}
     */
    public List<LedgerEntry> read(long ledgerId, long from, int max) {
        return store.read(ledgerId, from, max);
    }

    /**
     * Returns the last entry its writer reported acknowledged.
     *
     * @param ledgerId the ledger
     * @return the entry, 0 if none reported since this log node started
     */
    public long confirmed(long ledgerId) {
        return confirmed.getOrDefault(ledgerId, 0L);
    }

    /**
     * Returns the store.
     *
     * @return the store
     */
    public LedgerStore store() {
        return store;
    }
}
