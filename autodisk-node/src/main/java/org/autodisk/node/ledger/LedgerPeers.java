package org.autodisk.node.ledger;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.wire.LedgerHandover;

/**
 * How a writer, a recovery or a reader reaches the log nodes that hold ledgers (and a former writer its range's new
 * owner): the I/O boundary of the ledger protocol (over the peer channel in a node, over simulated links in the
 * simulation). Answers may be lost or late; callers put their own deadline on each.
 */
public interface LedgerPeers {

    /**
     * Appends entries of a ledger on a log node.
     *
     * @param logNode       the log node
     * @param ledgerId      the ledger
     * @param fragmentStart the first entry of the fragment the log node holds them in
     * @param recovery      whether a recovery writes them back (allowed on a fenced ledger)
     * @param lac           the writer's last acknowledged entry (readers on the log node stop there)
     * @param entries       consecutive entries
     * @return the ledger's last durable entry on the log node; fails with {@link LedgerException}
     */
    CompletableFuture<Long> append(String logNode, long ledgerId, long fragmentStart, boolean recovery, long lac,
            List<LedgerEntry> entries);

    /**
     * Fences a ledger on a log node.
     *
     * @param logNode  the log node
     * @param ledgerId the ledger
     * @return the last entry it holds and how long its writer had not been confirmed there, once the fence is
     *         durable
     */
    CompletableFuture<Fenced> fence(String logNode, long ledgerId);

    /**
     * What a log node answers a fence.
     *
     * @param last        the last entry it holds (0: none)
     * @param quietMillis how long before the fence it last took an append or a lease confirmation of the ledger from
     *                    its writer (since its own start if none since): the writer's lease through this log node ran
     *                    out at most {@code lease - quietMillis} after the fence
     */
    record Fenced(long last, long quietMillis) {
    }

    /**
     * Renews a writer's lease on its ledgers through a log node of their ensembles: the log node answers which of them
     * it holds fenced; for the others it confirms that they were not fenced when it took the question.
     *
     * @param logNode   the log node
     * @param ledgerIds the ledgers
     * @return the ledgers among them fenced there
     */
    CompletableFuture<List<Long>> confirm(String logNode, List<Long> ledgerIds);

    /**
     * Reads consecutive entries of a ledger from a log node.
     *
     * @param logNode  the log node
     * @param ledgerId the ledger
     * @param from     the first entry
     * @param max      at most this many
     * @return the entries it holds from {@code from} on
     */
    CompletableFuture<List<LedgerEntry>> read(String logNode, long ledgerId, long from, int max);

    /**
     * Tells a range's new owner that this writer's ledger ends at an entry, every entry acknowledged and no more to
     * come (after a migration's cutover), so that it need not wait for the close to commit. A node that does not
     * understand it, or does not answer, waits for the close as before: callers ignore a failure.
     *
     * @param dataNode  the new owner
     * @param handover  the ledger, its last entry and its writer
     * @return completes when the new owner took it; without a channel to data nodes (the simulation), at once
     */
    default CompletableFuture<Void> handOver(String dataNode, LedgerHandover handover) {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Reaches the log nodes over a node's peer channel (LEDGER_APPEND, LEDGER_FENCE, LEDGER_READ).
     *
     * @param peers the peer channel
     * @return the ledger peers
     */
    static LedgerPeers over(PeerChannel peers) {
        return new PeerLedgers(peers);
    }
}
