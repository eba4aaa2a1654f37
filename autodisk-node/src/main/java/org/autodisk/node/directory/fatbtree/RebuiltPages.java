package org.autodisk.node.directory.fatbtree;

import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a subtree that only one node held from the leaves the metadata lists under it: the top page keeps the id
 * its parent names, the pages below get new ids (nobody else refers to them), filled up to the fanout.
 */
final class RebuiltPages {

    private RebuiltPages() {
    }

    /**
     * Builds the subtree and puts its pages into a node's copies.
     *
     * @param self    the node
     * @param top     the parent's entry for the subtree's top page
     * @param high    the top page's high fence
     * @param level   the top page's level
     * @param leaves  the leaves between the fences, as level-1 entries
     * @param version the version the pages take (the parent's)
     * @param change  the change number for new page ids
     * @param created how many pages were created so far (for unique ids)
     */
    static void fromLeaves(NodeCopies self, Entry top, byte[] high, int level, List<Entry> leaves, long version,
            long change, int[] created) {
        List<Entry> entries = leaves;
        int fanout = Math.max(3, (int) Math.ceil(Math.pow(leaves.size(), 1.0 / level)));
        for (int l = 1; l < level; l++) {
            List<Entry> up = new ArrayList<>();
            for (int from = 0; from < entries.size(); from += fanout) {
                int to = Math.min(entries.size(), from + fanout);
                byte[] pageHigh = to < entries.size() ? entries.get(to).low() : high;
                Page p = new Page(StructureChanges.pageId(change, l, created[0]++), l, entries.get(from).low(),
                        pageHigh, entries.subList(from, to), version);
                self.apply(new PageBatch(version, List.of(p), List.of(), -1));
                up.add(StructureChanges.entryOf(p));
            }
            entries = up;
        }
        Page p = new Page(top.child(), level, top.low(), high, entries, version);
        self.apply(new PageBatch(version, List.of(p), List.of(), -1));
    }
}
