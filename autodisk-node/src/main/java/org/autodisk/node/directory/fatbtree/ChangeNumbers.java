package org.autodisk.node.directory.fatbtree;

/**
 * Numbers the structure changes one node carries out, unique in the cluster and never reused by the node, across
 * restarts too: a counter that goes up, reserved in the page store a block at a time, and the node's position among
 * the data nodes in the low byte. A change's number names the pages it creates ({@link StructureChanges#pageId}).
 */
final class ChangeNumbers {

    /** Numbers reserved in the store at a time. */
    static final long BLOCK = 1024;

    private final PageStore store;
    private final int index;
    private long next;
    private long reserved;

    /**
     * Starts numbering after what the store reserved.
     *
     * @param store    the store
     * @param index    the node's position among the data nodes (below 256)
     * @param reserved the bound the store holds
     */
    ChangeNumbers(PageStore store, int index, long reserved) {
        if (index < 0 || index > 255) {
            throw new IllegalArgumentException("a Fat-Btree has at most 256 data nodes; position " + index);
        }
        this.store = store;
        this.index = index;
        this.next = Math.max(1, reserved);
        this.reserved = next;
    }

    /**
     * Takes the next number.
     *
     * @return the change's number
     */
    long next() {
        if (next >= reserved) {
            reserved = next + BLOCK;
            store.reserve(reserved);
        }
        return next++ << 8 | index;
    }
}
