package org.autodisk.node.directory.fatbtree;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.node.directory.Directory;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.meta.Applied;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.RangeDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Fat-Btree behind a data node's {@link Directory}: the node routes over its own index copies and forwards to a
 * node holding the next page where it holds none. Its own ranges it serves from the committed metadata, which stays
 * the authority on ownership. The copies follow the metadata: the tree is bulk-loaded from the ranges at bootstrap,
 * and a committed split or owner change makes the node its copies name the leaf's owner reconcile that leaf with
 * the newest state ({@link Reconcile}, under MARK-OPT, see {@link FatBtreeNode}). The copies live in a page store
 * and are taken up again on restart. One thread per node runs the changes and takes the page messages.
 */
final class FatBtreeDirectory implements Directory {

    /** The directory's name in the configuration and the metadata. */
    static final String KIND = "fat-btree";

    private static final Logger LOG = LoggerFactory.getLogger(FatBtreeDirectory.class);

    private final String self;
    /** {@code directory.fanout} as configured (or as the seed of a join said). */
    private final int configuredFanout;
    /** The fanout this node runs: the cluster's, once {@link #start} saw the metadata. */
    private volatile int fanout;
    private final PageNetwork net;
    private final NodeCopies copies;
    private final PageStore store;
    private final ExecutorService loop;
    private PageStore.Contents stored;
    /** The taking up of copies from the peers, once started. */
    private PageRebuild rebuild;
    /** The first state this node saw that shows the cluster as created with it among the data nodes, if any. */
    private MetaState creation;

    private volatile Known known = new Known(MetaState.EMPTY, new TreeMap<>(Keys::compare));
    private FatBtreeNode node;
    /** Messages that came before this node loaded the tree (another node was told of the bootstrap first). */
    private final List<Runnable> early = new ArrayList<>();

    /** The metadata state this node applied and the ranges it owns in it, by low key. */
    private record Known(MetaState state, NavigableMap<byte[], RangeDescriptor> own) {
    }

    FatBtreeDirectory(String self, int fanout, PageNetwork net, PageStore store) {
        this.self = self;
        this.configuredFanout = fanout;
        this.fanout = fanout;
        this.net = net;
        this.store = store;
        this.copies = new NodeCopies(self, null);
        this.loop = Executors.newSingleThreadExecutor(Thread.ofPlatform().name(self + "-fat-btree").daemon()
                .factory());
    }

    /** Runs a task on this node's directory thread (none once closed); a failure is logged. */
    private void run(Runnable task) {
        if (loop.isShutdown()) {
            return;
        }
        loop.execute(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.error("{}: a Fat-Btree task failed; the changes queued behind it on this node wait", self, e);
            }
        });
    }

    /**
     * Follows the node's metadata from now on. Copies kept in the page store (a restart) are taken up again once the
     * metadata is there; otherwise they are taken up from the peers, or the creation is loaded (see {@link #start}).
     */
    @Override
    public void follow(Metadata metadata) {
        stored = store.load();
        metadata.subscribeCommands(a -> run(() -> applied(a)));
        metadata.subscribe(this::apply);
        run(() -> start(metadata.current()));
    }

    /**
     * Takes up the stored copies, or - the page store holding none and no mark that this node took part - takes them
     * up from its peers ({@link PageRebuild}, which may load the creation), once the metadata is bootstrapped; notes
     * the first state that shows the cluster as created.
     */
    private void start(MetaState now) {
        if (node != null || !now.bootstrapped() || !now.dataNodePositions().contains(self)) {
            return; // a joined node's position, which numbers its changes, is known once the metadata names it
        }
        if (creation == null && asCreated(now) && now.created().dataNodes().contains(self)) {
            creation = now;
        }
        if (rebuild != null) {
            return;
        }
        fanout = fanoutOf(now);
        if (!stored.pages().isEmpty() || stored.reserved() > 0) {
            restore(now);
        } else {
            rebuild(now);
        }
    }

    /** The fanout the cluster was created with, which every node runs; this node's own if none was recorded. */
    private int fanoutOf(MetaState now) {
        int created = now.created().fanout();
        if (created <= 0 || created == configuredFanout) {
            return configuredFanout;
        }
        LOG.warn("{}: directory.fanout is {} but the cluster was created with {}; the fanout is chosen when the "
                + "cluster is created, so this node runs {}", self, configuredFanout, created, created);
        return created;
    }

    /**
     * Marks in the page store that this node took up its part of the tree (written after its first copies): a later
     * start with no copies then knows it rightly holds none, and never loads the creation's tree again.
     */
    private void started() {
        if (stored.reserved() <= 0) {
            store.reserve(1);
        }
    }

    /** A node for these copies, numbered by its position among the data nodes. */
    private FatBtreeNode newNode(MetaState now, long reserved) {
        return new FatBtreeNode(copies, Layout.FAT_BTREE, now.dataNodePositions(), fanout, net, true, reserved,
                () -> known.state());
    }

    /** Whether no range was split or changed owner since the bootstrap (ids are never reused; both raise a count). */
    static boolean asCreated(MetaState s) {
        return s.nextRangeId() == s.ranges().size()
                && s.ranges().stream().allMatch(r -> r.epoch() == 1 && r.generation() == 1);
    }

    @Override
    public boolean ready() {
        return known.state().bootstrapped() && node != null;
    }

    @Override
    public Placement locate(byte[] key) {
        Known k = known;
        requireReady();
        Map.Entry<byte[], RangeDescriptor> own = k.own().floorEntry(key);
        if (own != null && own.getValue().contains(key)) {
            return new Placement(own.getValue(), true, null, k.state().version());
        }
        Route r = copies.route(key);
        String hop = r.servedHere() || r.nextHop() == null || self.equals(r.nextHop())
                ? k.state().rangeOf(key).owner() : r.nextHop();
        return new Placement(null, false, MetaRoutes.reachable(k.state(), hop, key), k.state().version());
    }

    @Override
    public List<Placement> cover(byte[] from, byte[] toExclusive) {
        Known k = known;
        requireReady();
        List<Placement> out = new ArrayList<>();
        if (copies.rootId() < 0) {
            String hop = MetaRoutes.reachable(k.state(), k.state().rangeOf(from).owner(), from);
            MetaRoutes.rest(self, k.state(), hop, from, toExclusive, out);
            return out;
        }
        NodeCopies.Cover c = copies.cover(from, toExclusive);
        for (NodeCopies.Cover.Leaf leaf : c.leaves()) {
            RangeDescriptor own = k.own().get(leaf.low());
            out.add(own != null ? new Placement(own, true, null, k.state().version())
                    : new Placement(null, false, MetaRoutes.reachable(k.state(), leaf.owner(), leaf.low()),
                            k.state().version()));
        }
        if (c.nextHop() != null) {
            String hop = MetaRoutes.reachable(k.state(), c.nextHop(), c.restFrom());
            MetaRoutes.rest(self, k.state(), hop, c.restFrom(), toExclusive, out);
        }
        return out;
    }

    private void requireReady() {
        if (!ready()) {
            throw new IllegalStateException(self + ": the Fat-Btree directory has not taken up its index yet");
        }
    }

    @Override
    public long version() {
        return known.state().version();
    }

    @Override
    public synchronized void apply(MetaState state) {
        if (state.version() <= known.state().version() && known.state().bootstrapped()) {
            return;
        }
        NavigableMap<byte[], RangeDescriptor> own = new TreeMap<>(Keys::compare);
        state.ranges().stream().filter(r -> r.owner().equals(self)).forEach(r -> own.put(r.low(), r));
        known = new Known(state, own);
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public int fanout() {
        return fanout;
    }

    /**
     * Takes a committed command, on the directory thread: the bootstrap loads the tree (or, replayed on a restart,
     * the stored copies are taken up: a bulk load would overwrite them); a split or owner change of a
     * leaf this node's copies name it the owner of is reconciled with the newest metadata; after a gap, every such
     * leaf is.
     */
    private void applied(Applied a) {
        if (node == null && a.command() instanceof MetaCommand.Bootstrap) {
            start(a.after());
            return;
        }
        start(a.before().bootstrapped() ? a.before() : a.after());
        start(a.after());
        if (node == null) {
            return; // not a data node yet, or rebuilding the copies it lost: it catches up once done
        }
        apply(a.after());
        if (a.gap() || !a.before().members().equals(a.after().members())) {
            node.membersChanged();
        }
        if (a.gap()) {
            reconcileAll();
            return;
        }
        Map<Integer, RangeDescriptor> before = new HashMap<>();
        a.before().ranges().forEach(r -> before.put(r.id(), r));
        for (RangeDescriptor r : a.after().ranges()) {
            RangeDescriptor was = before.get(r.id());
            if ((was == null || !was.owner().equals(r.owner())) && copies.ownsLeafOf(r.low())) {
                node.reconcile(r.low());
            }
        }
    }

    /** Reconciles every leaf this node's copies name it the owner of. */
    private void reconcileAll() {
        List<byte[]> lows = new ArrayList<>();
        copies.pages().values().stream().filter(p -> p.level() == 1).forEach(p -> p.entries().stream()
                .filter(e -> e.copySet().get(0).equals(self)).forEach(e -> lows.add(e.low())));
        lows.forEach(node::reconcile);
    }

    /**
     * Takes up the copies of an earlier start - none where this node rightly holds none: it then routes by the
     * metadata until a leaf moves to it with its root path - finishes its recorded changes, then catches up with the
     * metadata.
     */
    private void restore(MetaState now) {
        copies.restore(store, stored);
        started();
        long reserved = stored.reserved() > 0 ? stored.reserved() : (PageFetch.highest(stored.pages().values(),
                now.dataNodePositions().indexOf(self)) >>> 8) + PageRebuild.SKIP; // crashed as it took its copies up
        node = newNode(now, reserved);
        node.restarted(stored.pending());
        LOG.info("{}: Fat-Btree index taken up from its page store: {} index pages{}, {} changes to finish; "
                + "catching up with metadata v{}", self, copies.pages().size(), copies.pages().isEmpty()
                ? " (it owns no leaf: routing by the metadata until one moves here)" : "", stored.pending().size(),
                now.version());
        reconcileAll();
        early.forEach(Runnable::run);
        early.clear();
    }

    /**
     * Takes up copies from the peers ({@link PageRebuild}): a first start, a join, or copies lost; until done this
     * node takes no page message. The rebuild says when a node of the creation loads the creation's tree instead.
     */
    private void rebuild(MetaState now) {
        List<String> peers = now.dataNodePositions().stream().filter(n -> !n.equals(self)).toList();
        LOG.info("{}: no index copies in its page store: asking {} for theirs", self, peers);
        PageRebuild.Creation created = new PageRebuild.Creation(() -> creation, fanout, () -> load(creation));
        rebuild = new PageRebuild(self, now.dataNodePositions().indexOf(self), peers, net, this::run,
                () -> known.state(), this::rebuilt, created);
        rebuild.start();
    }

    /** Takes up the rebuilt copies: one write to the page store, then goes on as after a restart. */
    private void rebuilt(PageRebuild.Result r) {
        Map<Long, Map<String, PageBatch>> unfinished = new HashMap<>(); // the copies taken up hold its own part
        r.records().forEach((change, batches) -> unfinished.put(change, new java.util.LinkedHashMap<>(batches)));
        unfinished.values().forEach(batches -> batches.remove(self));
        unfinished.forEach(store::pending); // finished from here on, as after a restart: recorded before the pages
        copies.clear();
        copies.keepIn(store);
        copies.apply(new PageBatch(0, List.copyOf(r.copies().pages().values()), List.of(), r.copies().rootId()));
        store.reserve(r.reserved());
        node = newNode(known.state(), r.reserved());
        node.restarted(unfinished);
        LOG.info("{}: Fat-Btree index rebuilt: {} index pages ({} fetched from peers, {} rebuilt from the metadata); "
                + "catching up with metadata v{}", self, copies.pages().size(), r.fetched(), r.rebuilt(),
                known.state().version());
        reconcileAll();
        early.forEach(Runnable::run);
        early.clear();
    }

    private void load(MetaState created) {
        List<String> nodes = created.created().dataNodes();
        List<BulkLoad.Leaf> leaves = created.ranges().stream()
                .map(r -> new BulkLoad.Leaf(r.id(), r.low(), r.owner())).toList();
        NodeCopies mine = BulkLoad.load(leaves, fanout, Layout.FAT_BTREE, nodes).get(self);
        copies.clear();
        copies.keepIn(store);
        mine.pages().values().forEach(p -> copies.apply(new PageBatch(BulkLoad.CREATED, List.of(p), List.of(),
                p.id() == mine.rootId() ? p.id() : -1)));
        started();
        node = newNode(created, stored.reserved());
        LOG.info("{}: Fat-Btree loaded over {} ranges: {} index pages held here, fanout {}", self, leaves.size(),
                copies.pages().size(), fanout);
        reconcileAll(); // the metadata may have moved on while it waited for its peers
        early.forEach(Runnable::run);
        early.clear();
    }

    /**
     * Takes a page message from another node, on this node's directory thread.
     *
     * @param from  the sender
     * @param m     the message
     * @param taken run once the message is taken: handled, and what it changed written to the page store
     */
    void receive(String from, PageMessage m, Runnable taken) {
        run(() -> {
            if (node != null) {
                take(from, m, taken);
            } else {
                early.add(() -> take(from, m, taken));
            }
        });
    }

    /**
     * Answers a peer's page fetch from this node's copies, on its directory thread.
     *
     * @param asker the peer
     * @param page  the page id, or {@link PageFetch#ROOT}
     * @return the answer; failed once this node is closed
     */
    CompletableFuture<PageFetch.Answer> answer(String asker, long page) {
        try {
            return CompletableFuture.supplyAsync(() -> PageFetch.answer(copies, page,
                    known.state().dataNodePositions().indexOf(asker), node == null, known.state().version())
                    .with(page != PageFetch.ROOT ? new PeerRecords() : node != null ? node.records()
                            : new PeerRecords(store), asker), loop); // still starting: what its store kept
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            return CompletableFuture.failedFuture(closed);
        }
    }

    /** Hands a message to the node; it counts as taken even if handling it failed (it is not sent again). */
    private void take(String from, PageMessage m, Runnable taken) {
        try {
            node.receive(from, m);
        } finally {
            taken.run();
        }
    }

    /**
     * Tells whether this node carries out no change and holds no lock, and is not rebuilding its copies (tests wait
     * for it).
     *
     * @return a future true when idle
     */
    CompletableFuture<Boolean> idle() {
        return CompletableFuture.supplyAsync(() -> node != null ? node.idle() : rebuild == null, loop);
    }

    NodeCopies copies() {
        return copies;
    }

    /**
     * Describes this node's copies, read while changes go on (each page is one consistent copy); the leaves are
     * those its copies name it the owner of, not the metadata's.
     */
    @Override
    public DirectoryReport.NodeIndex index(String id, MetaState state) {
        return copies.report(KIND);
    }

    /** Stops this node's directory thread as a crash would: nothing more is done, nothing is closed. */
    void halt() {
        loop.shutdownNow();
    }

    /**
     * Waits until the directory thread stopped after {@link #halt}.
     *
     * @throws InterruptedException if interrupted
     */
    void awaitHalted() throws InterruptedException {
        if (!loop.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException(self + ": the Fat-Btree thread did not stop");
        }
    }

    @Override
    public void close() {
        net.close();
        loop.shutdownNow();
        try {
            if (!loop.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)) {
                LOG.warn("{}: the Fat-Btree thread did not stop; its page store stays open", self);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        store.close();
    }
}
