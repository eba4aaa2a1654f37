package org.autodisk.node.shipping;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.store.LocalStore;

/**
 * A data node's write-ahead log: every change gets the next LSN and is shipped to all of the node's log
 * nodes; only once as many of them as its multiplicity asks made it durable is it applied to the store (by one
 * apply thread, in LSN order, every record that became durable meanwhile in one atomic write) and handed back.
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
     * @param multiplicity how many of the log nodes must hold the record (1..{@link #logNodes()} size); it goes
     *                  to all of them
     * @param onApplied called on the apply thread once the record is durable on the required log nodes and
     *                  applied to the store
     * @param onFailure called if it could not be made durable (then it is not applied) or the store failed
     */
    void log(int rangeId, long epoch, int op, byte[] key, byte[] value, int multiplicity,
            Consumer<Applied> onApplied, Consumer<RuntimeException> onFailure);

    /**
     * A change made durable and applied.
     *
     * @param record       the record, with its LSN
     * @param changed      for a PUT whether the stream was created, for a DELETE whether it existed
     * @param durableNanos {@link System#nanoTime()} when it became durable (its store write began)
     */
    record Applied(LogRecord record, boolean changed, long durableNanos) {
    }

    /**
     * Returns the log nodes this data node ships to.
     *
     * @return their ids; empty in a cluster without log nodes
     */
    List<String> logNodes();

    /**
     * Tells whether some of the log nodes do not receive new records (one is down or being resynced).
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
     * Creates the shipping write-ahead log.
     *
     * @param selfId       this data node (its stream name at the log nodes)
     * @param logNodes     the log nodes to ship to, in preference order
     * @param peers        the peer channel
     * @param nextLsn      the first LSN to assign
     * @param maxBatch     most records per LOG_APPEND frame
     * @param store        the data node's store: durable records are applied to it, and its applied LSN is
     *                     reported to the log nodes for truncation
     * @param metrics      where its figures are registered (last LSN, records, batches, degraded, inline applies)
     * @return the log
     */
    static WriteAheadLog shipping(String selfId, List<String> logNodes, PeerChannel peers, long nextLsn,
            int maxBatch, LocalStore store, NodeMetrics metrics) {
        return new LogShipping(selfId, logNodes, peers, nextLsn, maxBatch, store, metrics);
    }

    /**
     * Creates the log of a data node in a cluster without log nodes: every change is applied to the store at once,
     * on the calling thread (RocksDB's own WAL makes it durable), and has no LSN.
     *
     * @param store the store
     * @return the log
     */
    static WriteAheadLog direct(LocalStore store) {
        return new DirectWrites(store);
    }
}
