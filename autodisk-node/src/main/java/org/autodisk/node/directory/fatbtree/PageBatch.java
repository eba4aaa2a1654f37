package org.autodisk.node.directory.fatbtree;

import java.util.List;

/**
 * What one structure change writes on one node: pages to put (new or rewritten copies), pages to drop (copies the
 * node no longer has a leaf under) and, after a root split, the new root's id.
 *
 * @param change the structure change
 * @param puts   the pages, lowest level first
 * @param drops  the ids of the pages to drop
 * @param root   the new root's id, or -1 when the root stays
 */
record PageBatch(long change, List<Page> puts, List<Long> drops, long root) {

    // copies the lists
    PageBatch {
        puts = List.copyOf(puts);
        drops = List.copyOf(drops);
    }

    /**
     * Returns the bytes this batch takes on the wire.
     *
     * @param withCopySets whether pages carry copy sets
     * @return the size
     */
    int bytes(boolean withCopySets) {
        int size = 8 + 8 + 4 + 4;
        for (Page p : puts) {
            size += p.bytes(withCopySets);
        }
        return size + 8 * drops.size();
    }
}
