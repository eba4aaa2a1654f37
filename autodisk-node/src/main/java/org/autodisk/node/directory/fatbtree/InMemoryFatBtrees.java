package org.autodisk.node.directory.fatbtree;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.node.directory.Directory;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.MetaState;

/**
 * Fat-Btree directories of several data nodes in one process, their page messages carried in memory (first in,
 * first out between any two nodes), each following its node's view of one in-memory metadata group: the tree's
 * node-side code without sockets, for tests and simulations.
 */
public final class InMemoryFatBtrees implements AutoCloseable {

    private final Map<String, FatBtreeDirectory> directories = new LinkedHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong taken = new AtomicLong();

    /**
     * Creates a directory per data node, each following the node's view of the group.
     *
     * @param group  the metadata
     * @param nodes  the data nodes
     * @param fanout the most entries an index page holds
     */
    public InMemoryFatBtrees(InMemoryMetadataGroup group, List<String> nodes, int fanout) {
        PageNetwork net = (from, to, m) -> {
            sent.incrementAndGet();
            directories.get(to).receive(from, m, taken::incrementAndGet);
        };
        nodes.forEach(n -> directories.put(n, new FatBtreeDirectory(n, fanout, net)));
        nodes.forEach(n -> directories.get(n).follow(group.member(n)));
    }

    /**
     * Returns a node's directory.
     *
     * @param node the data node
     * @return its directory
     */
    public Directory directory(String node) {
        return directories.get(node);
    }

    /**
     * Tells whether every structure change is carried out: no message in flight, no change queued, no lock held.
     *
     * @return true when settled
     */
    public boolean settled() {
        long before = sent.get();
        boolean idle = directories.values().stream().allMatch(d -> d.idle().join());
        return idle && taken.get() == before && sent.get() == before;
    }

    /**
     * Returns the index pages each node holds.
     *
     * @return copies per node id
     */
    public Map<String, Integer> copies() {
        Map<String, Integer> out = new LinkedHashMap<>();
        directories.forEach((id, d) -> out.put(id, d.copies().pages().size()));
        return out;
    }

    /**
     * Returns the number of distinct index pages in the tree.
     *
     * @return the pages, each counted once however many nodes hold a copy
     */
    public int indexPages() {
        return (int) directories.values().stream().flatMap(d -> d.copies().pages().keySet().stream()).distinct()
                .count();
    }

    /**
     * Returns the height of the tree: the level of the root.
     *
     * @return the levels of index pages
     */
    public int levels() {
        NodeCopies any = directories.values().iterator().next().copies();
        return any.rootId() < 0 ? 0 : any.page(any.rootId()).level();
    }

    /**
     * Checks the copy invariant over every node's copies against the committed ranges.
     *
     * @param state the metadata the copies should reflect
     * @return the violations, empty when every copy is where it belongs and agrees with its peers
     */
    public List<String> violations(MetaState state) {
        Map<String, NodeCopies> all = new LinkedHashMap<>();
        directories.forEach((id, d) -> all.put(id, d.copies()));
        return CopyInvariant.check(all, state);
    }

    @Override
    public void close() {
        directories.values().forEach(FatBtreeDirectory::close);
    }
}
