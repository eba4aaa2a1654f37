package org.autodisk.node.directory.fatbtree;

import java.util.List;

/**
 * What one structure change writes on one node: pages to put (new or rewritten copies), pages to drop (copies the
 * node no longer has a leaf under) and, after a root split, the new root's id.
 *
 * @param change the structure change
 * @param puts   the pages, lowest level first
 * @param drops  the pages to drop: id and the version the change wrote them at elsewhere
 * @param root   the new root's id, or -1 when the root stays
 */
record PageBatch(long change, List<Page> puts, List<Dropped> drops, long root) {

    /**
     * A page a node drops: its copy goes if it is older than the version the change wrote.
     *
     * @param id      the page id
     * @param version the version the change wrote the page at
     */
    record Dropped(long id, long version) {
    }

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
        return size + 16 * drops.size();
    }
}
