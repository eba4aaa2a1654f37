package org.autodisk.node.directory.fatbtree;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Carries out structure changes from the copies of the node that owns the leaf: a leaf split inserts the separator
 * into the page above it, a page that overflows splits at the same entry on every copy, a root split grows the tree,
 * and a leaf move rewrites the copy sets on the leaf's root path. The node computes every rewritten page from its
 * own copies (it holds the whole root path of a leaf it owns) and sends each other holder one batch with the pages
 * it now holds and the ones it drops.
 */
final class StructureChanges {

    private final Layout layout;
    private final List<String> nodes;
    private final int fanout;
    private final PageChannel channel;

    StructureChanges(Layout layout, List<String> nodes, int fanout, PageChannel channel) {
        if (fanout < 3) {
            throw new IllegalArgumentException("directory.fanout must be at least 3, got " + fanout);
        }
        this.layout = layout;
        this.nodes = List.copyOf(nodes);
        this.fanout = fanout;
        this.channel = channel;
    }

    /**
     * Returns the id of a page a change creates.
     *
     * @param change the change (the metadata index that committed it)
     * @param level  the page's level
     * @param index  the page's position among the pages the change creates at that level
     * @return a cluster-unique id
     */
    static long pageId(long change, int level, int index) {
        return change << 20 | (long) level << 12 | index;
    }

    /**
     * Splits a leaf: both halves stay with its owner, the right one is inserted into the page above.
     *
     * @param coord   the copies of the node carrying it out (the owner, or the single index node)
     * @param leaf    the leaf's range id
     * @param at      the split key, inside the leaf and above its low key
     * @param right   the new right leaf's range id
     * @param change  the change's number
     * @return its cost
     */
    ChangeCost splitLeaf(NodeCopies coord, long leaf, byte[] at, long right, long change) {
        return carryOut(coord, planSplit(coord, leaf, at, right, change), change);
    }

    /**
     * Plans a leaf split from a node's copies without writing anything.
     *
     * @param coord  the copies of the node carrying it out
     * @param leaf   the leaf's range id
     * @param at     the split key
     * @param right  the new right leaf's range id
     * @param change the change's number
     * @return the pages it rewrites
     */
    Plan planSplit(NodeCopies coord, long leaf, byte[] at, long right, long change) {
        List<Page> path = coord.pathTo(at);
        Page p = path.get(0);
        int slot = checkedSlot(p, leaf, at, coord);
        Entry e = p.entries().get(slot);
        if (java.util.Arrays.equals(e.low(), at)) {
            throw new IllegalArgumentException("leaf " + leaf + " already starts at the split key");
        }
        Entry added = new Entry(at, right, e.copySet());
        return propagate(path, p.replacing(slot, List.of(e, added)), change);
    }

    /**
     * Moves a leaf to another node: the entry above it names the new owner and every copy set up the path follows.
     *
     * @param coord  the copies of the node carrying it out (the owner, or the single index node)
     * @param leaf   the leaf's range id
     * @param low    the leaf's low key
     * @param to     the new owner
     * @param change the change's number
     * @return its cost
     */
    ChangeCost moveLeaf(NodeCopies coord, long leaf, byte[] low, String to, long change) {
        return carryOut(coord, planMove(coord, leaf, low, to, change), change);
    }

    /**
     * Plans a leaf move from a node's copies without writing anything.
     *
     * @param coord  the copies of the node carrying it out
     * @param leaf   the leaf's range id
     * @param low    the leaf's low key
     * @param to     the new owner
     * @param change the change's number
     * @return the pages it rewrites
     */
    Plan planMove(NodeCopies coord, long leaf, byte[] low, String to, long change) {
        List<Page> path = coord.pathTo(low);
        Page p = path.get(0);
        int slot = checkedSlot(p, leaf, low, coord);
        return propagate(path, p.replacing(slot, List.of(p.entries().get(slot).holders(List.of(to)))), change);
    }

    /**
     * The pages a change rewrites, lowest first: each step is the old page, the page that replaces it and, when it
     * split, the new right half; and the new root after a root split.
     *
     * @param steps   the rewritten pages
     * @param newRoot the new root, or {@code null}
     */
    record Plan(List<Page[]> steps, Page newRoot) {

        /**
         * Returns the highest page the change rewrites (the page a locking change marks).
         *
         * @return the old copy of that page
         */
        Page top() {
            return steps.get(steps.size() - 1)[0];
        }

        /**
         * Returns the nodes holding a copy of the highest page the change rewrites.
         *
         * @param layout the layout
         * @param nodes  every data node
         * @param rootId the root's id on the planning node
         * @return the holders
         */
        List<String> topHolders(Layout layout, List<String> nodes, long rootId) {
            return layout.holders(top(), top().id() == rootId, nodes);
        }
    }

    private static int checkedSlot(Page p, long leaf, byte[] key, NodeCopies coord) {
        int slot = p.slot(key);
        if (p.entries().get(slot).child() != leaf) {
            throw new IllegalStateException(coord.self() + ": the key routes to leaf " + p.entries().get(slot).child()
                    + ", not " + leaf);
        }
        return slot;
    }

    private Plan propagate(List<Page> path, List<Entry> entries, long change) {
        List<Page[]> steps = new ArrayList<>();
        Page newRoot = null;
        List<Entry> next = entries;
        for (int i = 0; i < path.size(); i++) {
            Page old = path.get(i);
            List<Page> repl = rewrite(old, next, change);
            steps.add(new Page[] {old, repl.get(0), repl.size() > 1 ? repl.get(1) : null});
            if (i == path.size() - 1) {
                newRoot = repl.size() > 1 ? grow(repl, change) : null;
                break;
            }
            Page parent = path.get(i + 1);
            next = parent.replacing(parent.indexOf(old.id()), repl.stream().map(StructureChanges::entryOf).toList());
            if (next.equals(parent.entries())) {
                break;
            }
        }
        return new Plan(steps, newRoot);
    }

    private List<Page> rewrite(Page old, List<Entry> entries, long change) {
        if (entries.size() <= fanout) {
            return List.of(old.rewritten(old.id(), old.low(), old.high(), entries, old.version() + 1));
        }
        int mid = entries.size() / 2;
        byte[] separator = entries.get(mid).low();
        Page left = old.rewritten(old.id(), old.low(), separator, entries.subList(0, mid), old.version() + 1);
        Page right = old.rewritten(pageId(change, old.level(), 0), separator, old.high(),
                entries.subList(mid, entries.size()), old.version() + 1);
        return List.of(left, right);
    }

    private static Page grow(List<Page> halves, long change) {
        int level = halves.get(0).level() + 1;
        return new Page(pageId(change, level, 0), level, halves.get(0).low(), null,
                halves.stream().map(StructureChanges::entryOf).toList(), halves.get(0).version());
    }

    static Entry entryOf(Page p) {
        return new Entry(p.low(), p.id(), p.copySet());
    }

    /**
     * Writes a planned change: applies it to the coordinator's copies and sends every other node that holds, gains
     * or loses a copy its batch.
     *
     * @param coord  the coordinator's copies
     * @param plan   the plan
     * @param change the change's number
     * @return its cost
     */
    ChangeCost carryOut(NodeCopies coord, Plan plan, long change) {
        return deliver(coord, batches(coord, plan, change), plan.steps().size());
    }

    /**
     * Computes the batch of every node a planned change writes: the pages it now holds and the ones it drops. A batch
     * that puts the root names it the root (a node that owned no leaf gains it with its first).
     *
     * @param coord  the coordinator's copies
     * @param plan   the plan
     * @param change the change's number
     * @return the batches by node, in node order, the coordinator's included
     */
    Map<String, PageBatch> batches(NodeCopies coord, Plan plan, long change) {
        List<Page[]> steps = plan.steps();
        Page newRoot = plan.newRoot();
        Map<String, List<Page>> puts = new LinkedHashMap<>();
        Map<String, List<PageBatch.Dropped>> drops = new LinkedHashMap<>();
        long oldRoot = coord.rootId();
        for (Page[] step : steps) {
            boolean wasRoot = step[0].id() == oldRoot;
            List<String> before = layout.holders(step[0], wasRoot, nodes);
            List<String> kept = layout.holders(step[1], wasRoot && newRoot == null, nodes);
            kept.forEach(n -> puts.computeIfAbsent(n, k -> new ArrayList<>()).add(step[1]));
            before.stream().filter(n -> !kept.contains(n))
                    .forEach(n -> drops.computeIfAbsent(n, k -> new ArrayList<>()).add(new PageBatch.Dropped(
                            step[1].id(), step[1].version())));
            if (step[2] != null) {
                layout.holders(step[2], false, nodes)
                        .forEach(n -> puts.computeIfAbsent(n, k -> new ArrayList<>()).add(step[2]));
            }
        }
        if (newRoot != null) {
            layout.holders(newRoot, true, nodes).forEach(n -> puts.computeIfAbsent(n, k -> new ArrayList<>())
                    .add(newRoot));
        }
        long root = newRoot != null ? newRoot.id()
                : steps.get(steps.size() - 1)[0].id() == oldRoot ? oldRoot : -1;
        Map<String, PageBatch> out = new LinkedHashMap<>();
        for (String n : written(puts, drops)) {
            List<Page> p = puts.getOrDefault(n, List.of());
            List<PageBatch.Dropped> d = drops.getOrDefault(n, List.of());
            if (!p.isEmpty() || !d.isEmpty()) {
                boolean rootHere = root >= 0 && p.stream().anyMatch(page -> page.id() == root);
                out.put(n, new PageBatch(change, p, d, rootHere ? root : -1));
            }
        }
        return out;
    }

    /**
     * Returns every node a change writes: the data nodes in their order, then any other (a node that joined after the
     * cluster was created), by id.
     */
    private List<String> written(Map<String, List<Page>> puts, Map<String, List<PageBatch.Dropped>> drops) {
        java.util.Set<String> all = new java.util.TreeSet<>(puts.keySet());
        all.addAll(drops.keySet());
        List<String> out = new ArrayList<>(nodes.stream().filter(all::contains).toList());
        all.stream().filter(n -> !out.contains(n)).forEach(out::add);
        return out;
    }

    /**
     * Applies the coordinator's batch to its copies and sends every other node its own.
     *
     * @param coord   the coordinator's copies
     * @param batches the batches by node
     * @param levels  the levels the change rewrote
     * @return its cost
     */
    ChangeCost deliver(NodeCopies coord, Map<String, PageBatch> batches, int levels) {
        int messages = 0;
        int copies = 0;
        long bytes = 0;
        for (Map.Entry<String, PageBatch> e : batches.entrySet()) {
            PageBatch batch = e.getValue();
            if (e.getKey().equals(coord.self())) {
                coord.apply(batch);
            } else {
                channel.send(coord.self(), e.getKey(), batch);
                messages++;
                copies += batch.puts().size() + batch.drops().size();
                bytes += batch.bytes(layout.copySets());
            }
        }
        return new ChangeCost(messages, copies, bytes, levels);
    }
}
