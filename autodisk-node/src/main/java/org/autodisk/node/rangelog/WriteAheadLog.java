package org.autodisk.node.rangelog;

import org.autodisk.core.protocol.Status;
import org.autodisk.node.peer.PeerException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.autodisk.node.wire.LedgerHandover;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeDescriptor;

/**
 * A data node's write-ahead log: every change of a range goes into the range's open ledger on its log nodes; once
 * the ledger's ack quorum holds it and every entry before it, it is applied to the store (on the node's apply thread,
 * in entry order) and handed back. Without log nodes, changes go straight to the store ({@link #direct}).
 */
public interface WriteAheadLog extends AutoCloseable {

    /**
     * Logs a change.
     *
     * @param rangeId   the key's range
     * @param epoch     the range's epoch
     * @param op        {@link LogRecord#PUT} or {@link LogRecord#DELETE}
     * @param key       the key
     * @param value     the value (empty for DELETE)
     * @param multiplicity how many log nodes the rules ask to hold the record: at most the ledgers' ack quorum
     *                  ({@link #logNodes()} size); more is refused, since every entry of a ledger has the same copies
     * @param onApplied called on the apply thread once the record is durable on the ack quorum (with every entry
     *                  before it) and applied to the store
     * @param onFailure called if it was not made durable (NODE_UNAVAILABLE: it was never written), if that cannot
     *                  be known (OUTCOME_UNKNOWN: recovery settles it) or if the store failed
     */
    void log(int rangeId, long epoch, int op, byte[] key, byte[] value, int multiplicity,
            Consumer<Applied> onApplied, Consumer<RuntimeException> onFailure);

    /**
     * A change made durable and applied.
     *
     * @param record       the record, with its entry id in the range's ledger (0 without log nodes)
     * @param changed      for a PUT whether the stream was created, for a DELETE whether it existed
     * @param durableNanos {@link System#nanoTime()} when it became durable (its store write began)
     */
    record Applied(LogRecord record, boolean changed, long durableNanos) {
    }

    /**
     * Returns the log nodes this data node logs to first (any other log node may stand in for one that fails).
     *
     * @return their ids; empty in a cluster without log nodes
     */
    List<String> logNodes();

    /**
     * Tells whether some range's ledger is written to fewer log nodes than its multiplicity (a log node is down).
     *
     * @return true when degraded
     */
    boolean degraded();

    /**
     * Completes once the range of a key can be read here: at once, unless the range's log is still being recovered
     * and replayed (then reads must wait: the store may lack acknowledged writes).
     *
     * @param rangeId the key's range
     * @param key     the key
     * @return completes when reads may be served; fails (NODE_UNAVAILABLE) if the range did not get there in time
     */
    default CompletableFuture<Void> ready(int rangeId, byte[] key) {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Tells whether this node still has a writer for some part of a range's span: it may serve it until the writer
     * is retired, as the node applies the metadata that moved the range on, and a retired one may still write the
     * store until its start (a replay) has ended and its ledger is closed. Nothing may delete the span meanwhile.
     *
     * @param range the range
     * @return whether it has one
     */
    default boolean hasWriterOver(RangeDescriptor range) {
        return false;
    }

    /**
     * Makes the metadata command that splits a range at a key. Asked of the range's owner, it opens a ledger for each
     * half in the same change, which this process's slots of the halves write without opening one themselves.
     *
     * @param range the range as this node knows it
     * @param at    the first key of the right half
     * @return the command
     */
    default MetaCommand.Split splitCommand(RangeDescriptor range, byte[] at) {
        return new MetaCommand.Split(range.id(), range.generation(), at);
    }

    /**
     * Chooses the log nodes of the ledger a migration's cutover opens for this node (the target) in the same
     * metadata change, and lets the range's writer at the new epoch use that ledger without opening one itself.
     *
     * @param rangeId the range
     * @param epoch   its epoch after the cutover
     * @return the ensemble; empty to open none (no log node answers, or no log nodes)
     */
    default List<String> reserveCutoverLedger(int rangeId, long epoch) {
        return List.of();
    }

    /**
     * Forgets a reservation whose cutover did not apply.
     *
     * @param rangeId the range
     * @param epoch   the epoch it was reserved at
     */
    default void releaseCutoverLedger(int rangeId, long epoch) {
    }

    /**
     * Takes a range's former owner's word that its ledger of the range ends at an entry (LEDGER_HANDOVER, after a
     * migration's cutover to this node): the range's new slot replays to there without waiting for the close.
     *
     * @param handover the ledger, its last entry and its writer
     * @return false if it was not kept (no log, or too many kept): the slot then waits for the close to commit
     */
    default boolean handOver(LedgerHandover handover) {
        return false;
    }

    /**
     * Sums how long the writes of ranges handed over to this node waited: from the former owner's stop (its wall
     * clock, sent with the handover) until this node served the range.
     *
     * @return milliseconds, summed over the cutovers to this node since it started
     */
    default double cutoverPausedMillis() {
        return 0;
    }

    /**
     * Says what the log waits for, for {@code status}.
     *
     * @return empty when nothing waits
     */
    default String describe() {
        return "";
    }

    /** Stops the apply thread after the callbacks queued so far ran. */
    @Override
    void close();

    /**
     * Creates the log of a data node in a cluster without log nodes: every change is applied to the store at once,
     * on the calling thread (RocksDB's own WAL makes it durable), and has no entry id.
     *
     * @param store the store
     * @return the log
     */
    static WriteAheadLog direct(LocalStore store) {
        return new DirectWrites(store);
    }

    /**
     * Why a write failed when this node stopped owning the key's range between taking the write and logging it (the
     * range moved away): nothing was written, and the write goes to the new owner.
     */
    final class MovedAway extends PeerException {
        private static final long serialVersionUID = 1L;

        /**
         * Creates the failure.
         *
         * @param message what moved
         */
        public MovedAway(String message) {
            super(Status.NODE_UNAVAILABLE, message);
        }
    }
}
