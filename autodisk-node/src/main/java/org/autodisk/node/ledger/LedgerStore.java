package org.autodisk.node.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A log node's durable ledgers. It never accepts an entry that would leave a hole: an append continues the ledger
 * from its last entry, or starts the fragment this log node was added to ({@code fragmentStart}, past everything it
 * holds); entries it holds already are taken again without change. A fenced ledger takes appends from recovery only;
 * the fence is durable before it is reported. Futures complete once durable; a failed append leaves nothing of it.
 */
public interface LedgerStore extends AutoCloseable {

    /**
     * Appends entries of one ledger.
     *
     * @param ledgerId      the ledger
     * @param fragmentStart the first entry of the fragment this log node holds the entries in
     * @param recovery      whether a recovery writes them back (allowed on a fenced ledger)
     * @param entries       consecutive entries of the ledger
     * @return the ledger's last durable entry here; fails with {@link LedgerException} (FENCED, GAP, UNAVAILABLE)
     */
    CompletableFuture<Long> append(long ledgerId, long fragmentStart, boolean recovery, List<LedgerEntry> entries);

    /**
     * Fences a ledger: from now on its writer's appends are refused, also after a restart.
     *
     * @param ledgerId the ledger
     * @return the last entry held here once the fence is durable (0: none)
     */
    CompletableFuture<Long> fence(long ledgerId);

    /**
     * Says why the store takes no more writes (its journal failed a write or an fsync; until it is reopened).
     *
     * @return the failure, or {@code null} while it takes writes
     */
    default String failure() {
        return null;
    }

    /**
     * Truncates a ledger: its entries below an entry are no longer needed (the range's owner and backup hold them
     * durably) and may be dropped; the space they take is reclaimed when nothing else needs it. The last entry and
     * the fence are kept. Entries past the last one held are never dropped (the point is lowered to just after it).
     *
     * @param ledgerId the ledger
     * @param below    entries below this one go
     * @return the ledger's last entry here, once the truncation is recorded
     */
    CompletableFuture<Long> truncate(long ledgerId, long below);

    /**
     * Reads entries.
     *
     * @param ledgerId the ledger
     * @param from     the first entry wanted
     * @param max      at most this many
     * @return the consecutive entries held from {@code from} on (empty if it holds none there)
     */
    List<LedgerEntry> read(long ledgerId, long from, int max);

    /**
     * Returns the last entry held.
     *
     * @param ledgerId the ledger
     * @return its id, 0 if none
     */
    long lastEntry(long ledgerId);

    /**
     * Tells whether a ledger is fenced.
     *
     * @param ledgerId the ledger
     * @return true once fenced
     */
    boolean fenced(long ledgerId);

    /**
     * Returns what the store wrote since it was opened.
     *
     * @return entries written and fsyncs made
     */
    Stats stats();

    /**
     * What a ledger store wrote since it was opened.
     *
     * @param entries entries made durable
     * @param syncs   fsyncs made (0 in memory)
     */
    record Stats(long entries, long syncs) {

        /**
         * Returns the entries per fsync.
         *
         * @return the ratio, 0 before the first fsync
         */
        public double entriesPerSync() {
            return syncs == 0 ? 0 : (double) entries / syncs;
        }
    }

    /** Releases the store. */
    @Override
    void close();

    /**
     * Returns a store in memory (tests and the simulation; a fault hook fails its writes).
     *
     * @param nodeId the log node, for messages
     * @return the store
     */
    static InMemoryLedgerStore inMemory(String nodeId) {
        return new InMemoryLedgerStore(nodeId);
    }

    /**
     * Opens the store on disk: one journal of segment files for every ledger of the log node (docs/durability.md).
     *
     * @param nodeId  the log node, for messages
     * @param dir     the journal's directory
     * @param options segment size, preallocation and the fault hook
     * @return the store, with everything the journal held
     * @throws IOException if the journal cannot be read, or is damaged other than by a write torn by a crash
     */
    static LedgerStore journal(String nodeId, Path dir, SegmentOptions options) throws IOException {
        return ReopeningLedgerStore.open(nodeId, dir, options, ReopeningLedgerStore.EVERY);
    }
}
