package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.autodisk.core.Keys;

/**
 * Data nodes of one process holding index pages in one layout, with the leaves as the metadata records them (owner
 * of every range). Leaf splits and moves go through {@link StructureChanges} on the node that carries them out;
 * routes follow the nodes' own copies hop by hop.
 */
final class PageCluster {

    /** The bytes of a leaf owner's request to the single index node (leaf id, key, target). */
    static final int REQUEST_BYTES = 64;

    private final Layout layout;
    private final int fanout;
    private final List<String> nodes;
    private final Map<String, NodeCopies> copies;
    private final InMemoryPageChannel channel;
    private final StructureChanges changes;
    private final TreeMap<byte[], BulkLoad.Leaf> leaves = new TreeMap<>(Keys.ORDER);
    private final Map<String, Long> pagesRead = new HashMap<>();

    PageCluster(Layout layout, List<String> nodes, List<BulkLoad.Leaf> initial, int fanout) {
        this.layout = layout;
        this.fanout = fanout;
        this.nodes = List.copyOf(nodes);
        this.copies = BulkLoad.load(initial, fanout, layout, nodes);
        this.channel = new InMemoryPageChannel(copies);
        this.changes = new StructureChanges(layout, nodes, fanout, channel);
        initial.forEach(l -> leaves.put(l.low(), l));
    }

    Layout layout() {
        return layout;
    }

    List<String> nodes() {
        return nodes;
    }

    Map<String, NodeCopies> copies() {
        return copies;
    }

    InMemoryPageChannel channel() {
        return channel;
    }

    int fanout() {
        return fanout;
    }

    /**
     * Records a split in the leaves, as the metadata commits it, without changing any page.
     *
     * @param at    the split key
     * @param right the right half's range id
     * @return the leaf split, or {@code null} if a leaf already starts at the key
     */
    BulkLoad.Leaf commitSplit(byte[] at, long right) {
        BulkLoad.Leaf leaf = leafOf(at);
        if (Keys.compare(leaf.low(), at) == 0) {
            return null;
        }
        leaves.put(at, new BulkLoad.Leaf(right, at, leaf.owner()));
        return leaf;
    }

    /**
     * Records a move in the leaves, as the metadata commits it, without changing any page.
     *
     * @param low the leaf's low key
     * @param to  the new owner
     * @return the leaf as it was
     */
    BulkLoad.Leaf commitMove(byte[] low, String to) {
        BulkLoad.Leaf leaf = leaves.get(low);
        leaves.put(low, new BulkLoad.Leaf(leaf.id(), low, to));
        return leaf;
    }

    /**
     * Returns the leaves as the metadata records them.
     *
     * @return the leaves in key order
     */
    List<BulkLoad.Leaf> leaves() {
        return new ArrayList<>(leaves.values());
    }

    /**
     * Returns the leaf holding a key.
     *
     * @param key the key
     * @return the leaf
     */
    BulkLoad.Leaf leafOf(byte[] key) {
        return leaves.floorEntry(key).getValue();
    }

    /**
     * Splits the leaf holding a key at that key.
     *
     * @param at     the split key
     * @param right  the right half's range id
     * @param change the change's number
     * @return its cost, or {@code null} if a leaf already starts at the key
     */
    ChangeCost split(byte[] at, long right, long change) {
        BulkLoad.Leaf leaf = commitSplit(at, right);
        if (leaf == null) {
            return null;
        }
        ChangeCost cost = changes.splitLeaf(coordinator(leaf.owner()), leaf.id(), at, right, change);
        return withRequest(cost, leaf.owner());
    }

    /**
     * Moves a leaf to another node.
     *
     * @param low    the leaf's low key
     * @param to     the new owner
     * @param change the change's number
     * @return its cost
     */
    ChangeCost move(byte[] low, String to, long change) {
        BulkLoad.Leaf leaf = commitMove(low, to);
        ChangeCost cost = changes.moveLeaf(coordinator(leaf.owner()), leaf.id(), low, to, change);
        return withRequest(cost, leaf.owner());
    }

    private NodeCopies coordinator(String owner) {
        return copies.get(layout.coordinator(owner, nodes));
    }

    private ChangeCost withRequest(ChangeCost cost, String owner) {
        return layout.coordinator(owner, nodes).equals(owner) ? cost : cost.plusRequest(REQUEST_BYTES);
    }

    /**
     * Routes a key from a node, forwarding hop by hop, until a node serves it. A request forwarded to a leaf's owner
     * names the leaf, and the owner serves it without a descent (it knows its own ranges, as a node checks the range
     * and epoch a forwarded request is stamped with).
     *
     * @param from the entry node
     * @param key  the key
     * @return the node that served it and the hops taken
     */
    Trace route(String from, byte[] key) {
        String at = from;
        for (int hops = 0; hops <= nodes.size(); hops++) {
            Route r = copies.get(at).route(key);
            pagesRead.merge(at, (long) r.pagesRead(), Long::sum);
            if (r.servedHere()) {
                return new Trace(at, hops);
            }
            if (r.leaf() >= 0) {
                return new Trace(r.nextHop(), hops + 1);
            }
            if (r.nextHop() == null) {
                // holds no root (owns no leaf): the node routes by the metadata, straight to the owner
                return new Trace(leafOf(key).owner(), hops + 1);
            }
            at = r.nextHop();
        }
        throw new IllegalStateException("no node serves " + Keys.render(key) + " from " + from);
    }

    /**
     * Restarts a node without its copies and rebuilds them: the root from any peer, then, level by level, every child
     * whose copy set names the node - from a peer holding it, or, for a page only this node held, rebuilt from the
     * leaves the metadata lists between its fence keys (new ids below it: only this node refers to them).
     *
     * @param node   the node
     * @param change the number the rebuilt pages take
     * @return the pages fetched from peers
     */
    int rebuild(String node, long change) {
        NodeCopies self = copies.get(node);
        self.clear();
        channel.restart(node);
        NodeCopies peer = copies.values().stream().filter(c -> c != self && c.rootId() >= 0).findFirst()
                .orElseThrow(() -> new IllegalStateException(node + ": no peer holds a root"));
        Page root = peer.page(peer.rootId());
        self.apply(new PageBatch(root.version(), List.of(root), List.of(), root.id()));
        ArrayDeque<Page> todo = new ArrayDeque<>(List.of(root));
        int fetched = 1;
        int[] created = {0};
        while (!todo.isEmpty()) {
            Page p = todo.poll();
            for (int i = 0; p.level() > 1 && i < p.entries().size(); i++) {
                Entry e = p.entries().get(i);
                if (layout != Layout.REPLICATED && !e.copySet().contains(node)) {
                    continue;
                }
                Page child = fetch(node, e);
                if (child == null) {
                    byte[] high = i + 1 < p.entries().size() ? p.entries().get(i + 1).low() : p.high();
                    RebuiltPages.fromLeaves(self, e, high, p.level() - 1, leavesBetween(e.low(), high),
                            p.version(), change, created);
                    continue;
                }
                self.apply(new PageBatch(child.version(), List.of(child), List.of(), -1));
                todo.add(child);
                fetched++;
            }
        }
        return fetched;
    }

    private Page fetch(String node, Entry e) {
        return copies.entrySet().stream().filter(c -> !c.getKey().equals(node))
                .map(c -> c.getValue().page(e.child())).filter(Objects::nonNull).findFirst().orElse(null);
    }

    private List<Entry> leavesBetween(byte[] low, byte[] high) {
        return (high == null ? leaves.tailMap(low, true) : leaves.subMap(low, true, high, false)).values().stream()
                .map(l -> new Entry(l.low(), l.id(), List.of(l.owner()))).toList();
    }

    /**
     * Returns the index pages each node read for the routes so far.
     *
     * @return pages read by node
     */
    Map<String, Long> pagesRead() {
        return pagesRead;
    }

    /**
     * Walks the leaves of an interval from a node, handing the rest to the next node where the entry node's copies
     * end, as traverse does across nodes.
     *
     * @param from        the entry node
     * @param low         inclusive start
     * @param toExclusive exclusive end, {@code null} for the end
     * @return the leaves in key order and the hops taken
     */
    Walk cover(String from, byte[] low, byte[] toExclusive) {
        List<NodeCopies.Cover.Leaf> leaves = new ArrayList<>();
        String at = from;
        byte[] rest = low;
        for (int hops = 0; hops <= 4 * this.leaves.size() + nodes.size(); hops++) {
            NodeCopies.Cover c = copies.get(at).cover(rest, toExclusive);
            leaves.addAll(c.leaves());
            if (c.nextHop() == null) {
                return new Walk(leaves, hops);
            }
            at = c.nextHop();
            rest = c.restFrom();
        }
        throw new IllegalStateException("the walk of an interval from " + from + " does not end");
    }

    /**
     * An interval's walk.
     *
     * @param leaves the leaves in key order
     * @param hops   the nodes it was handed to
     */
    record Walk(List<NodeCopies.Cover.Leaf> leaves, int hops) {
    }

    /**
     * A routed key's path.
     *
     * @param servedBy the node that served it
     * @param hops     the forwards on the way
     */
    record Trace(String servedBy, int hops) {
    }
}
