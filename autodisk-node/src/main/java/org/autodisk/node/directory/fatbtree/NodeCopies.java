package org.autodisk.node.directory.fatbtree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.node.directory.Directory;

/**
 * The index pages one node holds and the descent over them. Batches apply one page at a time; a descent that meets a
 * page whose fence keys no longer cover its key (a concurrent split or move) restarts from the root.
 */
final class NodeCopies {

    /** Restarts after which a descent gives up (a structure change that never completes on this node). */
    static final int MAX_RESTARTS = 64;

    private final String self;
    private final String indexNode;
    private final Map<Long, Page> pages = new ConcurrentHashMap<>();
    private volatile long rootId = -1;
    private PageStore store = PageStore.NONE;

    /**
     * Creates an empty set of copies.
     *
     * @param self      this node
     * @param indexNode where a key goes while this node holds no root, {@code null} if it always holds one
     */
    NodeCopies(String self, String indexNode) {
        this.self = self;
        this.indexNode = indexNode;
    }

    String self() {
        return self;
    }

    /**
     * Keeps the copies in a store from now on, after taking what it holds.
     *
     * @param held  the store
     * @param from  what it holds
     */
    void restore(PageStore held, PageStore.Contents from) {
        pages.clear();
        pages.putAll(from.pages());
        rootId = from.root();
        store = held;
    }

    PageStore store() {
        return store;
    }

    /**
     * Keeps the copies in a store from now on (it holds nothing yet).
     *
     * @param held the store
     */
    void keepIn(PageStore held) {
        store = held;
    }

    /**
     * Returns the root's id, or -1 while this node holds no root (it owns no leaf: it joined and was given none yet,
     * or its last leaf moved away, which dropped its copy of the root with the rest of the path).
     *
     * @return the id
     */
    long rootId() {
        long r = rootId;
        return r >= 0 && pages.containsKey(r) ? r : -1;
    }

    Page page(long id) {
        return pages.get(id);
    }

    Map<Long, Page> pages() {
        return Collections.unmodifiableMap(pages);
    }

    /**
     * Applies a structure change's pages: puts (a copy never goes back to an older or equal version), then the
     * root (when the batch wrote its page, or this node held none), then drops (of copies older than the version
     * dropped).
     *
     * @param batch the batch
     * @return whether it changed a copy (and wrote the store, synced)
     */
    boolean apply(PageBatch batch) {
        List<Page> written = new ArrayList<>();
        for (Page p : batch.puts()) {
            if (pages.merge(p.id(), p, (now, next) -> next.version() > now.version() ? next : now) == p) {
                written.add(p);
            }
        }
        long root = batch.root() >= 0 && (rootId() < 0 || written.stream().anyMatch(p -> p.id() == batch.root()))
                ? batch.root() : -1; // a batch sent again, older than the copies, does not take the root back
        if (root >= 0) {
            rootId = root;
        }
        List<Long> removed = new ArrayList<>();
        for (PageBatch.Dropped d : batch.drops()) {
            if (pages.containsKey(d.id()) && pages.computeIfPresent(d.id(),
                    (k, p) -> p.version() < d.version() ? null : p) == null) {
                removed.add(d.id());
            }
        }
        if (!written.isEmpty() || !removed.isEmpty() || root >= 0) {
            store.write(written, removed, root);
            return true;
        }
        return false;
    }

    /** Forgets every copy (the node restarted without them). */
    void clear() {
        rootId = -1;
        pages.clear();
    }

    /**
     * Descends this node's copies for a key.
     *
     * @param key the key
     * @return where the descent ended
     */
    Route route(byte[] key) {
        Descent d = descend(key);
        if (d.page() == null) {
            return new Route(false, -1, d.nextHop(), d.read());
        }
        Entry e = d.page().entries().get(d.page().slot(key));
        String owner = e.copySet().get(0);
        return new Route(owner.equals(self), e.child(), owner.equals(self) ? null : owner, d.read());
    }

    /**
     * Resolves the leaves covering {@code [from, toExclusive)} in key order as far as this node's copies reach: each
     * leaf under a level-1 page held here; where a child is not held here, the node to hand the rest to.
     *
     * @param from        inclusive start
     * @param toExclusive exclusive end, {@code null} for the end of the key space
     * @return the leaves in order, and the rest of the interval if another node must resolve it
     */
    Cover cover(byte[] from, byte[] toExclusive) {
        List<Cover.Leaf> leaves = new ArrayList<>();
        byte[] at = from;
        while (at != null && (toExclusive == null || Keys.compare(at, toExclusive) < 0)) {
            Descent d = descend(at);
            if (d.page() == null) {
                return new Cover(leaves, d.nextHop(), at);
            }
            List<Entry> entries = d.page().entries();
            for (int i = d.page().slot(at); i < entries.size(); i++) {
                if (toExclusive != null && Keys.compare(entries.get(i).low(), toExclusive) >= 0) {
                    return new Cover(leaves, null, null);
                }
                leaves.add(new Cover.Leaf(entries.get(i).child(), entries.get(i).low(),
                        entries.get(i).copySet().get(0)));
            }
            at = d.page().high();
        }
        return new Cover(leaves, null, null);
    }

    /**
     * Where a descent stopped: the level-1 page held here that covers the key, or the node holding the first page
     * that is not held here.
     *
     * @param page    the level-1 page, or {@code null}
     * @param nextHop the node to forward to when {@code page} is {@code null}
     * @param read    the pages read
     */
    private record Descent(Page page, String nextHop, int read) {
    }

    private Descent descend(byte[] key) {
        int read = 0;
        for (int restarts = 0; restarts <= MAX_RESTARTS; restarts++) {
            Page page = pages.get(rootId);
            if (page == null) {
                return new Descent(null, indexNode, read);
            }
            while (page != null && page.covers(key)) {
                read++;
                if (page.level() == 1) {
                    return new Descent(page, null, read);
                }
                Entry e = page.entries().get(page.slot(key));
                Page child = pages.get(e.child());
                if (child == null) {
                    return new Descent(null, pick(e.copySet(), key), read);
                }
                page = child;
            }
        }
        throw new IllegalStateException(self + ": no descent for " + Keys.render(key) + " after " + MAX_RESTARTS
                + " restarts");
    }

    /**
     * The leaves of an interval one node resolved.
     *
     * @param leaves   the leaves, in key order
     * @param nextHop  the node that resolves the rest, {@code null} if nothing is left
     * @param restFrom where the rest starts
     */
    record Cover(List<Leaf> leaves, String nextHop, byte[] restFrom) {

        /**
         * A leaf of the interval.
         *
         * @param id    its range id
         * @param low   its low key
         * @param owner its owner
         */
        record Leaf(long id, byte[] low, String owner) {
        }
    }

    private static String pick(List<String> holders, byte[] key) {
        return holders.get(Math.floorMod(Arrays.hashCode(key), holders.size()));
    }

    /**
     * Returns the pages from the root down to the level-1 page above the leaf holding a key, all held here.
     *
     * @param key the key
     * @return the path, level-1 page first
     * @throws IllegalStateException if this node does not hold the whole path (it owns no leaf under it)
     */
    List<Page> pathTo(byte[] key) {
        List<Page> path = new ArrayList<>();
        Page page = pages.get(rootId);
        while (page != null && page.covers(key)) {
            path.add(0, page);
            if (page.level() == 1) {
                return path;
            }
            page = pages.get(page.entries().get(page.slot(key)).child());
        }
        throw new IllegalStateException(self + ": does not hold the index path to " + Keys.render(key));
    }

    /**
     * Tells whether these copies name this node the owner of the leaf holding a key.
     *
     * @param key the key
     * @return true if this node holds the path to the leaf and owns it
     */
    boolean ownsLeafOf(byte[] key) {
        try {
            Page p = pathTo(key).get(0);
            return p.entries().get(p.slot(key)).copySet().get(0).equals(self);
        } catch (IllegalStateException notHeld) {
            return false;
        }
    }

    /**
     * Returns the leaves this node owns under the level-1 pages a batch writes, as these copies hold them now.
     *
     * @param batch the batch
     * @return the leaves' entries
     */
    List<Entry> ownLeavesUnder(PageBatch batch) {
        List<Entry> out = new ArrayList<>();
        for (Page put : batch.puts()) {
            Page now = pages.get(put.id());
            if (put.level() == 1 && now != null) {
                now.entries().stream().filter(e -> e.copySet().get(0).equals(self)).forEach(out::add);
            }
        }
        return out;
    }

    /**
     * Returns the bytes of the copies held here.
     *
     * @param withCopySets whether copy sets are counted
     * @return the size
     */
    long bytes(boolean withCopySets) {
        long size = 0;
        for (Page p : pages.values()) {
            size += p.bytes(withCopySets);
        }
        return size;
    }

    /**
     * Describes these copies for the DIRECTORY report, the root first, then by level and low key; the leaves are
     * those the copies name this node the owner of.
     *
     * @param kind the directory's name
     * @return the report of this node
     */
    DirectoryReport.NodeIndex report(String kind) {
        List<Page> held = new ArrayList<>(pages.values());
        long root = rootId();
        held.sort(Comparator.comparing((Page p) -> p.id() != root).thenComparing(Page::level, Comparator.reverseOrder())
                .thenComparing(Page::low, Keys::compare));
        List<String> leaves = new ArrayList<>();
        held.stream().filter(p -> p.level() == 1).sorted(Comparator.comparing(Page::low, Keys::compare))
                .forEach(p -> p.entries().stream().filter(e -> e.copySet().get(0).equals(self))
                        .forEach(e -> leaves.add(Directory.render(e.low()))));
        List<DirectoryReport.IndexPage> out = held.stream().map(p -> new DirectoryReport.IndexPage(p.id(),
                p.level(), Directory.render(p.low()), p.high() == null ? null : Directory.render(p.high()),
                p.entries().size(), p.copySet(), p.version(), p.digest())).toList();
        return new DirectoryReport.NodeIndex(self, kind, out.size(), leaves.size(), out, leaves, null);
    }
}
