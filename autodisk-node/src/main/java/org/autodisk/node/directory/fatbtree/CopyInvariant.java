package org.autodisk.node.directory.fatbtree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.autodisk.core.Keys;
import org.autodisk.node.meta.MetaState;

/**
 * Checks a cluster's copies against the layout and the leaves the metadata records: every copy of a page equal; a
 * node holds a page exactly when the layout says so (for the Fat-Btree: when it owns a leaf beneath it, and the root
 * everywhere); fence keys of every child match its entry; entries' copy sets true; the leaves, read left to right,
 * are the metadata's leaves with their owners; no page held that the root does not reach.
 */
final class CopyInvariant {

    private final Tree cluster;
    private final Map<Long, Page> pages = new HashMap<>();
    private final Map<Long, TreeSet<String>> holders = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final List<BulkLoad.Leaf> seen = new ArrayList<>();

    /**
     * What the check reads.
     *
     * @param copies every node's copies
     * @param layout who should hold which page
     * @param nodes  every data node
     * @param leaves the metadata's leaves in key order
     */
    record Tree(Map<String, NodeCopies> copies, Layout layout, List<String> nodes, List<BulkLoad.Leaf> leaves) {
    }

    private CopyInvariant(Tree cluster) {
        this.cluster = cluster;
    }

    /**
     * Checks a cluster.
     *
     * @param cluster the cluster
     * @return the violations found, empty if none
     */
    static List<String> check(PageCluster cluster) {
        return check(new Tree(cluster.copies(), cluster.layout(), cluster.nodes(), cluster.leaves()));
    }

    /**
     * Checks the Fat-Btree copies of data nodes against the ranges of a metadata state.
     *
     * @param copies each node's copies, by node id (the nodes of the tree)
     * @param state  the metadata the copies should reflect
     * @return the violations found, empty if none
     */
    static List<String> check(Map<String, NodeCopies> copies, MetaState state) {
        List<BulkLoad.Leaf> leaves = state.ranges().stream().map(r -> new BulkLoad.Leaf(r.id(), r.low(), r.owner()))
                .toList();
        return check(new Tree(copies, Layout.FAT_BTREE, List.copyOf(copies.keySet()), leaves));
    }

    /**
     * Checks the copies of nodes against the metadata's leaves.
     *
     * @param tree the copies, layout, nodes and leaves
     * @return the violations found, empty if none
     */
    static List<String> check(Tree tree) {
        CopyInvariant c = new CopyInvariant(tree);
        c.gather();
        long root = c.root();
        if (root >= 0) {
            c.walk(c.pages.get(root), new byte[0], null, true);
            c.leaves();
            c.unreached(root);
        }
        return c.violations;
    }

    private void gather() {
        cluster.copies().forEach((node, copies) -> copies.pages().values().forEach(p -> {
            Page first = pages.putIfAbsent(p.id(), p);
            if (first != null && !first.sameAs(p)) {
                violations.add("copies of page " + p.id() + " differ: " + first + " / on " + node + " " + p);
            }
            holders.computeIfAbsent(p.id(), k -> new TreeSet<>()).add(node);
        }));
    }

    private long root() {
        TreeSet<Long> roots = new TreeSet<>();
        cluster.copies().values().stream().filter(c -> c.rootId() >= 0).forEach(c -> roots.add(c.rootId()));
        if (roots.size() != 1 || !pages.containsKey(roots.first())) {
            violations.add("nodes disagree on the root or hold none: " + roots);
            return -1;
        }
        return roots.first();
    }

    private void walk(Page page, byte[] low, byte[] high, boolean root) {
        if (!Arrays.equals(page.low(), low) || !Arrays.equals(page.high(), high)) {
            violations.add("fences of " + page + " are not [" + Keys.render(low) + ", " + render(high) + ")");
        }
        List<String> want = cluster.layout().holders(page, root, cluster.nodes());
        if (!new TreeSet<>(want).equals(holders.get(page.id()))) {
            violations.add("page " + page.id() + " L" + page.level() + " held by " + holders.get(page.id())
                    + ", should be " + want);
        }
        List<Entry> entries = page.entries();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            byte[] childHigh = i + 1 < entries.size() ? entries.get(i + 1).low() : high;
            if (page.level() == 1) {
                seen.add(new BulkLoad.Leaf(e.child(), e.low(), e.copySet().size() == 1 ? e.copySet().get(0)
                        : e.copySet().toString()));
                continue;
            }
            Page child = pages.get(e.child());
            if (child == null || child.level() != page.level() - 1) {
                violations.add("page " + page.id() + " points to a missing or misplaced page " + e);
                continue;
            }
            if (!e.copySet().equals(child.copySet())) {
                violations.add("page " + page.id() + " records " + e.copySet() + " for " + child.id() + ", which "
                        + "has leaves of " + child.copySet());
            }
            walk(child, e.low(), childHigh, false);
        }
    }

    private void leaves() {
        List<BulkLoad.Leaf> truth = cluster.leaves();
        if (seen.size() != truth.size()) {
            violations.add("the tree has " + seen.size() + " leaves, the metadata " + truth.size());
            return;
        }
        for (int i = 0; i < truth.size(); i++) {
            BulkLoad.Leaf t = truth.get(i);
            BulkLoad.Leaf s = seen.get(i);
            if (t.id() != s.id() || !Arrays.equals(t.low(), s.low()) || !t.owner().equals(s.owner())) {
                violations.add("leaf " + i + " is " + s.id() + "@" + Keys.render(s.low()) + " on " + s.owner()
                        + ", the metadata says " + t.id() + "@" + Keys.render(t.low()) + " on " + t.owner());
                return;
            }
        }
    }

    private void unreached(long root) {
        TreeSet<Long> reached = new TreeSet<>();
        collect(pages.get(root), reached);
        pages.keySet().stream().filter(id -> !reached.contains(id))
                .forEach(id -> violations.add("page " + id + " is held by " + holders.get(id) + " but unreachable"));
    }

    private void collect(Page p, TreeSet<Long> reached) {
        reached.add(p.id());
        if (p.level() > 1) {
            p.entries().forEach(e -> {
                Page child = pages.get(e.child());
                if (child != null) {
                    collect(child, reached);
                }
            });
        }
    }

    private static String render(byte[] key) {
        return key == null ? "end" : Keys.render(key);
    }
}
