package org.autodisk.node.store;

import java.util.List;
import java.util.Map;
import org.autodisk.core.protocol.KeyValue;

/**
 * Streams copied from another node's snapshot, loaded in bulk: added in ascending key order, invisible until
 * {@link #finish}, which makes them visible and durable in one step (RocksDB: an SST file written beside the store and
 * ingested with {@code ingestExternalFile}, so neither the memtable nor a flush sees them). Used by one thread.
 */
public interface BulkLoad extends AutoCloseable {

    /**
     * Adds streams; keys ascend within a call and across calls since the last {@link #finish}.
     *
     * @param ascending the streams
     */
    void add(List<KeyValue> ascending);

    /**
     * Tells whether streams were added since the last {@link #finish}.
     *
     * @return true if some wait for the next finish
     */
    boolean pending();

    /**
     * Makes what was added visible and durable, replacing streams with the same keys, and raises the applied entry of
     * the ledgers given to at least the entry named (as {@link LocalStore#ingest} does; the positions are durable with
     * the next {@link LocalStore#makeDurable}).
     *
     * @param positions ledger to applied entry from the copied snapshot (empty for none)
     * @return how many of the streams were new
     */
    long finish(Map<Long, Long> positions);

    /** Drops what was added and not finished. */
    @Override
    void close();
}
