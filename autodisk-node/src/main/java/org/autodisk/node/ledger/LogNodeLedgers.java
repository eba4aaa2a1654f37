package org.autodisk.node.ledger;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ledgers of one log node as its peers see them: appends, fences and reads go to its {@link LedgerStore}, and it
 * remembers each ledger's last acknowledged entry as its writer reports it (in memory: after a restart, only what a
 * writer reports again or the metadata's close tells), so that catching backups up never applies an entry that
 * was not acknowledged.
 */
public final class LogNodeLedgers {

    private final LedgerStore store;
    private final Map<Long, Long> confirmed = new ConcurrentHashMap<>();

    /**
     * Wraps a store.
     *
     * @param store the log node's durable ledgers
     */
    public LogNodeLedgers(LedgerStore store) {
        this.store = store;
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
        if (!recovery && !store.fenced(ledgerId)) {
            confirmed.merge(ledgerId, lac, Math::max);
        }
        return store.append(ledgerId, fragmentStart, recovery, entries);
    }

    /**
     * Fences a ledger.
     *
     * @param ledgerId the ledger
     * @return the last entry held, once durable
     */
    public CompletableFuture<Long> fence(long ledgerId) {
        return store.fence(ledgerId);
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
