package org.autodisk.node.directory.fatbtree;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What nodes send each other to change the Fat-Btree: locks on page copies, page batches and their receipts, and a
 * node's word that it restarted.
 */
sealed interface PageMessage {

    /**
     * Asks for X on the receiver's copy of a page for a change.
     *
     * @param change the change
     * @param page   the page it marks
     */
    record LockRequest(long change, long page) implements PageMessage {
    }

    /**
     * Tells the change's coordinator that the sender granted its lock.
     *
     * @param change the change
     */
    record LockGranted(long change) implements PageMessage {
    }

    /**
     * Releases every lock a change holds on the receiver.
     *
     * @param change the change
     */
    record Release(long change) implements PageMessage {
    }

    /**
     * Pages a change writes on the receiver, and the change's record: the batches of every node it writes, which the
     * receiver keeps until the coordinator releases the change, so that a coordinator that lost its page store can
     * finish the change from it ({@link PageRebuild}).
     *
     * @param batch  the receiver's batch
     * @param record every node's batch of the change, the coordinator's included; empty if not kept
     */
    record Batch(PageBatch batch, Map<String, PageBatch> record) implements PageMessage {

        // copies the record, in its order
        public Batch {
            record = Collections.unmodifiableMap(new LinkedHashMap<>(record));
        }

        /**
         * A batch without a record.
         *
         * @param batch the receiver's batch
         */
        Batch(PageBatch batch) {
            this(batch, Map.of());
        }
    }

    /**
     * Tells the change's coordinator that the sender applied its batch.
     *
     * @param change the change
     */
    record Applied(long change) implements PageMessage {
    }

    /**
     * Tells the receiver that the sender restarted: the changes it carried out before are gone (their locks go, and the
     * records of them the receiver keeps, but for the changes it sent again before this message), and what the
     * receiver awaits from it (a lock, a batch applied) must be asked again.
     *
     * @param resent the changes the sender sent again on its restart, to be finished
     */
    record Restarted(List<Long> resent) implements PageMessage {

        // copies the list
        public Restarted {
            resent = List.copyOf(resent);
        }

        /** A restart that sends no change again. */
        Restarted() {
            this(List.of());
        }
    }
}
