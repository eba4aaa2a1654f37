package org.autodisk.node.directory.fatbtree;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.node.directory.Directory;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.MetaState;

/**
 * Fat-Btree directories of several data nodes in one process, their page messages carried in memory (first in,
 * first out between any two nodes), each following its node's view of one in-memory metadata group: the tree's
 * node-side code without sockets, for tests and simulations. A node can crash - at once, or when it sends a chosen
 * kind of message (the named fault hook {@link #crashWhenSending}) - and restart over its page store: messages to a
 * node that is down wait and arrive in order once it is back, as the peer network sends them again; what a crashed
 * node had not sent yet is lost.
 */
public final class InMemoryFatBtrees implements AutoCloseable {

    private final Map<String, FatBtreeDirectory> directories = new LinkedHashMap<>();
    private final Map<String, PageStore> stores = new HashMap<>();
    private final Set<String> down = new HashSet<>();
    private final Map<String, List<Runnable>> held = new HashMap<>();
    private final Map<String, Map<Long, Runnable>> inFlight = new HashMap<>();
    private long seq;
    private final Map<String, Class<? extends PageMessage>> crashOn = new HashMap<>();
    private final Map<String, Integer> passing = new HashMap<>();
    private final InMemoryMetadataGroup group;
    private final int fanout;
    private final PageNetwork net = new PageNetwork() {
        @Override
        public void send(String from, String to, PageMessage m) {
            carry(from, to, m);
        }

        @Override
        public CompletableFuture<PageFetch.Answer> fetch(String from, String to, long page) {
            return answer(from, to, page);
        }
    };
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
        this.group = group;
        this.fanout = fanout;
        nodes.forEach(n -> stores.put(n, new InMemoryPageStore()));
        nodes.forEach(n -> directories.put(n, new FatBtreeDirectory(n, fanout, net, stores.get(n))));
        nodes.forEach(n -> directories.get(n).follow(group.member(n)));
    }

    private synchronized void carry(String from, String to, PageMessage m) {
        if (down.contains(from)) {
            return;
        }
        if (m.getClass() == crashOn.get(from) && passing.merge(from, -1, Integer::sum) < 0) {
            crash(from);
            return;
        }
        sent.incrementAndGet();
        if (down.contains(to)) {
            held.computeIfAbsent(to, k -> new ArrayList<>()).add(() -> deliver(from, to, m));
        } else {
            deliver(from, to, m);
        }
    }

    /** A peer's answer to a page fetch; a node that is down gives none (the asker's wait runs out). */
    private synchronized CompletableFuture<PageFetch.Answer> answer(String from, String to, long page) {
        if (down.contains(from) || down.contains(to)) {
            return new CompletableFuture<>();
        }
        return directories.get(to).answer(from, page);
    }

    /** Hands a message over; until the receiver took it, a crash of the receiver puts it back to be sent again. */
    private void deliver(String from, String to, PageMessage m) {
        long n = seq++;
        redeliver(n, from, to, m);
    }

    private void redeliver(long n, String from, String to, PageMessage m) {
        inFlight.computeIfAbsent(to, k -> new LinkedHashMap<>()).put(n, () -> redeliver(n, from, to, m));
        directories.get(to).receive(from, m, () -> took(to, n));
    }

    /** A message was taken; one a crashed receiver's old thread took is already put back (it took nothing). */
    private synchronized void took(String to, long n) {
        Map<Long, Runnable> flying = inFlight.get(to);
        if (flying != null && flying.remove(n) != null) {
            taken.incrementAndGet();
        }
    }

    /**
     * Crashes a node the first time it sends a kind of message: that message and all it would send later are lost.
     *
     * @param node the node
     * @param kind the kind of message
     */
    public synchronized void crashWhenSending(String node, Class<? extends PageMessage> kind) {
        crashWhenSending(node, kind, 0);
    }

    /**
     * Crashes a node when it sends a kind of message once {@code first} of them went out (a coordinator's change
     * half-written: some of its batches delivered, the rest lost with it).
     *
     * @param node  the node
     * @param kind  the kind of message
     * @param first how many of them go out before the crash
     */
    public synchronized void crashWhenSending(String node, Class<? extends PageMessage> kind, int first) {
        crashOn.put(node, kind);
        passing.put(node, first);
    }

    /**
     * Crashes a node now: it stops, and nothing it would send goes out.
     *
     * @param node the node
     */
    public synchronized void crash(String node) {
        crashOn.remove(node);
        down.add(node);
        directories.get(node).halt();
        List<Runnable> again = new ArrayList<>(inFlight.getOrDefault(node, Map.of()).values());
        again.addAll(held.getOrDefault(node, List.of()));
        held.put(node, again);
        inFlight.remove(node);
    }

    /**
     * Tells whether a node is down.
     *
     * @param node the node
     * @return true if it crashed and did not restart
     */
    public synchronized boolean isDown(String node) {
        return down.contains(node);
    }

    /**
     * Restarts a crashed node over its page store once its old thread stopped; the messages held for it arrive, in
     * order.
     *
     * @param node the node
     * @throws InterruptedException if interrupted while the old thread stops
     */
    public void restart(String node) throws InterruptedException {
        restart(node, false);
    }

    /**
     * Restarts a crashed node as {@link #restart(String)} does, its page store lost if asked (a node whose index
     * directory is gone): it then rebuilds its copies from its peers.
     *
     * @param node      the node
     * @param lostCopies whether its page store comes back empty
     * @throws InterruptedException if interrupted while the old thread stops
     */
    public void restart(String node, boolean lostCopies) throws InterruptedException {
        FatBtreeDirectory old;
        synchronized (this) {
            old = directories.get(node);
        }
        old.awaitHalted();
        synchronized (this) {
            if (lostCopies) {
                stores.put(node, new InMemoryPageStore());
            }
            FatBtreeDirectory d = new FatBtreeDirectory(node, fanout, net, stores.get(node));
            directories.put(node, d);
            d.follow(group.member(node));
            down.remove(node);
            held.getOrDefault(node, List.of()).forEach(Runnable::run);
            held.remove(node);
        }
    }

    /**
     * Returns a node's directory.
     *
     * @param node the data node
     * @return its directory
     */
    public synchronized Directory directory(String node) {
        return directories.get(node);
    }

    /**
     * Tells whether every structure change is carried out: no message in flight, no change queued, no lock held.
     *
     * @return true when settled
     */
    public boolean settled() {
        long before = sent.get();
        if (isDownAny()) {
            return false;
        }
        boolean idle = directories.values().stream().allMatch(d -> d.idle().join());
        return idle && taken.get() == before && sent.get() == before;
    }

    private synchronized boolean isDownAny() {
        return !down.isEmpty();
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
