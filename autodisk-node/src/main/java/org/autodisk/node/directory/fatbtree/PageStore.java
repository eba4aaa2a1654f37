package org.autodisk.node.directory.fatbtree;

import java.util.List;
import java.util.Map;

/**
 * Where a data node keeps its index page copies across restarts, with the structure changes it coordinates that are
 * written but not yet applied everywhere, and how far its change numbers are reserved. Every write is durable when
 * the call returns.
 */
interface PageStore extends AutoCloseable {

    /** A store that keeps nothing (the simulations, whose nodes never restart). */
    PageStore NONE = new PageStore() {
        @Override
        public Contents load() {
            return new Contents(Map.of(), -1, Map.of(), 0);
        }

        @Override
        public void write(List<Page> puts, List<Long> removed, long root) {
        }

        @Override
        public void pending(long change, Map<String, PageBatch> batches) {
        }

        @Override
        public void done(long change) {
        }

        @Override
        public void reserve(long upTo) {
        }

        @Override
        public Records records() {
            return new Records(Map.of(), Map.of());
        }

        @Override
        public void keep(long change, Kept kept) {
        }

        @Override
        public void released(String coordinator, long change, List<Long> last) {
        }

        @Override
        public void forget(String coordinator, List<Long> changes) {
        }

        @Override
        public void sync() {
        }

        @Override
        public void close() {
        }
    };

    /**
     * Everything the store holds.
     *
     * @param pages    the copies by page id
     * @param root     the root's id, -1 if none
     * @param pending  the changes this node coordinated that are not known applied everywhere: the batch of every
     *                 node they write, this node's own included
     * @param reserved change numbers below this were (or may have been) used
     */
    record Contents(Map<Long, Page> pages, long root, Map<Long, Map<String, PageBatch>> pending, long reserved) {
    }

    /**
     * The record of a change another node coordinates that this node applied a batch of ({@link PeerRecords}).
     *
     * @param coordinator the node coordinating the change
     * @param batches     every node's batch of it
     */
    record Kept(String coordinator, Map<String, PageBatch> batches) {
    }

    /**
     * What the store keeps of the changes other nodes coordinate.
     *
     * @param kept     the records, by change
     * @param released by coordinator, the last changes it released of which this node kept the record
     */
    record Records(Map<Long, Kept> kept, Map<String, List<Long>> released) {
    }

    /**
     * Reads what the store keeps of other nodes' changes.
     *
     * @return the records and released changes
     */
    Records records();

    /**
     * Keeps the record of another node's change. Not synced by itself: the synced write of the pages the change's
     * batch leaves, which follows, makes both durable (or a {@link #sync} where the batch changed nothing).
     *
     * @param change the change
     * @param kept   its record
     */
    void keep(long change, Kept kept);

    /**
     * Forgets the record of a change its coordinator released and records the coordinator's last released changes, in
     * one synced write.
     *
     * @param coordinator the coordinator
     * @param change      the change released
     * @param last        its last released changes, this one included
     */
    void released(String coordinator, long change, List<Long> last);

    /**
     * Forgets records of a coordinator's changes and its released changes (it restarted), in one synced write.
     *
     * @param coordinator the coordinator
     * @param changes     the changes whose records go
     */
    void forget(String coordinator, List<Long> changes);

    /** Makes every write before it durable. */
    void sync();

    /**
     * Reads what the store holds.
     *
     * @return the contents
     */
    Contents load();

    /**
     * Writes the copies a batch left: the pages now held, the ones gone, and the root.
     *
     * @param puts    the pages as now held
     * @param removed the ids of the pages no longer held
     * @param root    the root's id, or -1 if it did not change
     */
    void write(List<Page> puts, List<Long> removed, long root);

    /**
     * Records a change this node is about to write, before any of it is applied anywhere.
     *
     * @param change  the change
     * @param batches the batch of every node it writes, by node
     */
    void pending(long change, Map<String, PageBatch> batches);

    /**
     * Forgets a pending change: every node applied its batch.
     *
     * @param change the change
     */
    void done(long change);

    /**
     * Records that change numbers below a bound may be in use.
     *
     * @param upTo the bound
     */
    void reserve(long upTo);

    @Override
    void close();
}
