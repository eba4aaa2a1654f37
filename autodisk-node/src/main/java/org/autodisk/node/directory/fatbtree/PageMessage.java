package org.autodisk.node.directory.fatbtree;

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
     * Pages a change writes on the receiver.
     *
     * @param batch the batch
     */
    record Batch(PageBatch batch) implements PageMessage {
    }

    /**
     * Tells the change's coordinator that the sender applied its batch.
     *
     * @param change the change
     */
    record Applied(long change) implements PageMessage {
    }

    /**
     * Tells the receiver that the sender restarted: the changes it carried out before are gone (their locks go), and
     * what the receiver awaits from it (a lock, a batch applied) must be asked again.
     */
    record Restarted() implements PageMessage {
    }
}
