package org.autodisk.node.directory.fatbtree;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.autodisk.core.Keys;

/**
 * One entry of an index page: the lowest key of its child, the child (a page id, or a leaf's range id in a page of
 * level 1) and the child's copy set - the nodes holding a copy of the child page, or the leaf's owner.
 *
 * @param low     the child's low fence key
 * @param child   the child page's id, or the leaf's range id at level 1
 * @param copySet the nodes holding the child, sorted
 */
record Entry(byte[] low, long child, List<String> copySet) {

    // copies and sorts the copy set
    Entry {
        copySet = List.copyOf(new TreeSet<>(copySet));
    }

    /**
     * Returns this entry with another copy set.
     *
     * @param nodes the nodes
     * @return the entry
     */
    Entry holders(List<String> nodes) {
        return new Entry(low, child, nodes);
    }

    /**
     * Returns the bytes this entry takes in a page.
     *
     * @param withCopySet whether copy sets are kept (two bytes per member)
     * @return the size
     */
    int bytes(boolean withCopySet) {
        return 2 + low.length + 8 + (withCopySet ? 1 + 2 * copySet.size() : 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Entry e && child == e.child && Arrays.equals(low, e.low) && copySet.equals(e.copySet);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(low), child, copySet);
    }

    @Override
    public String toString() {
        return Keys.render(low) + "->" + child + copySet;
    }
}
