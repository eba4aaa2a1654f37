package org.autodisk.node.directory.fatbtree;

/**
 * What one structure change cost on the wire: messages to other nodes (one batch per node), the page copies they
 * wrote or dropped, their bytes, and the index levels it rewrote.
 *
 * @param messages   batches sent to other nodes
 * @param pageCopies page copies put or dropped on other nodes
 * @param bytes      bytes of those batches
 * @param levels     index levels rewritten (1 = only the page above the leaf)
 */
record ChangeCost(int messages, int pageCopies, long bytes, int levels) {

    /**
     * Adds one request message (a leaf's owner asking the single index node to carry out the change).
     *
     * @param requestBytes the request's size
     * @return the cost with one more message
     */
    ChangeCost plusRequest(int requestBytes) {
        return new ChangeCost(messages + 1, pageCopies, bytes + requestBytes, levels);
    }
}
