package org.autodisk.node.shipping;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.node.peer.PeerChannel;

/**
 * A data node's write-ahead log: every change gets the next LSN and is shipped to all of the node's log
 * nodes; it is handed back for applying only once as many of them as its multiplicity asks made it durable.
 * Callbacks run on one apply thread in LSN order, so applying in the callback applies in log order.
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
     * @param onDurable called with the record once durable on the required log nodes
     * @param onFailure called if it could not be made durable (the change must not be applied)
     */
    void log(int rangeId, long epoch, int op, byte[] key, byte[] value, int multiplicity,
            Consumer<LogRecord> onDurable, Consumer<RuntimeException> onFailure);

    /**
     * Returns the log nodes this data node ships to.
     *
     * @return their ids
     */
    List<String> logNodes();

    /**
     * Tells whether some of the log nodes do not receive new records (one is down or being resynced).
     *
     * @return true when degraded
     */
    boolean degraded();

    /**
     * Returns figures for status: last LSN, records shipped, batches, degraded (0/1).
     *
     * @return name to value
     */
    Map<String, Double> metrics();

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
     * @param applied      the data node's applied LSN, reported to the log nodes for truncation
     * @return the log
     */
    static WriteAheadLog shipping(String selfId, List<String> logNodes, PeerChannel peers, long nextLsn,
            int maxBatch, LongSupplier applied) {
        return new LogShipping(selfId, logNodes, peers, nextLsn, maxBatch, applied);
    }
}
