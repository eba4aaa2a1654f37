package org.autodisk.node.directory.fatbtree;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a tree over the leaves a cluster is created with, pages filled to three quarters of the fanout, and gives
 * every node the copies its layout says it holds.
 */
final class BulkLoad {

    /** The change number of the tree a cluster is created with. */
    static final long CREATED = 1;

    private BulkLoad() {
    }

    /**
     * One leaf at creation.
     *
     * @param id    its range id
     * @param low   its low key
     * @param owner its owner
     */
    record Leaf(long id, byte[] low, String owner) {
    }

    /**
     * Builds the copies of every node.
     *
     * @param leaves the leaves in key order, the first one starting at the empty key
     * @param fanout the most entries a page holds
     * @param layout who holds which page
     * @param nodes  every data node
     * @return each node's copies
     */
    static Map<String, NodeCopies> load(List<Leaf> leaves, int fanout, Layout layout, List<String> nodes) {
        List<Entry> level = leaves.stream().map(l -> new Entry(l.low(), l.id(), List.of(l.owner()))).toList();
        List<Page> all = new ArrayList<>();
        int fill = Math.max(2, fanout * 3 / 4);
        for (int depth = 1; all.isEmpty() || level.size() > 1; depth++) {
            List<Page> pages = pages(level, depth, fill);
            all.addAll(pages);
            level = pages.stream().map(StructureChanges::entryOf).toList();
        }
        Page root = all.get(all.size() - 1);
        Map<String, NodeCopies> out = new LinkedHashMap<>();
        String index = layout == Layout.SINGLE_INDEX ? nodes.get(0) : null;
        nodes.forEach(n -> out.put(n, new NodeCopies(n, n.equals(index) ? null : index)));
        for (Page p : all) {
            boolean isRoot = p == root;
            PageBatch batch = new PageBatch(CREATED, List.of(p), List.of(), isRoot ? p.id() : -1);
            layout.holders(p, isRoot, nodes).forEach(n -> out.get(n).apply(batch));
        }
        return out;
    }

    private static List<Page> pages(List<Entry> entries, int level, int fill) {
        int count = (entries.size() + fill - 1) / fill;
        if (count >= 1 << 12) {
            throw new IllegalArgumentException("too many leaves at creation for this fanout: " + entries.size());
        }
        List<Page> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int from = i * entries.size() / count;
            int to = (i + 1) * entries.size() / count;
            byte[] high = to < entries.size() ? entries.get(to).low() : null;
            out.add(new Page(StructureChanges.pageId(CREATED, level, i), level, entries.get(from).low(), high,
                    entries.subList(from, to), CREATED));
        }
        return out;
    }
}
