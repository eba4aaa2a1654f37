package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.autodisk.core.Keys;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes up the index copies of a data node whose page store holds none and does not say it took part before (a
 * first start, or a node that lost its index directory) from its peers, while changes go on. It asks every other
 * data node for its root and takes the newest (the highest level, then version), once its own metadata is as new as
 * every answering peer's, and every peer not declared failed answered (one may keep the record of a change this node
 * had under way, below). While no peer holds a root, see {@link #noRoot}. If the root's copy set
 * does not name this node, it rightly holds nothing (a node that joined and was given no leaf). Otherwise it walks
 * down: every page whose parent's entry names this node in its copy set is fetched from the other nodes that entry
 * names, the newest copy taken; a page the entry names no other holder of is rebuilt from the ranges the metadata
 * lists between its fence keys, all of them this node's in the tree (a page held by one node has only that node's
 * leaves under it) - {@link Reconcile} then moves those the metadata gave another owner. A page no holder has yet (a
 * batch still on its way to them) is asked again.
 *
 * <p>Until it is done the node takes no page message (the structure changes that write a page it holds cannot finish
 * without it); once done, it tells every node it restarted, and the batches of changes under way reach its new copies
 * as on any restart. Its change numbers resume {@link #SKIP} past the highest of its position any answer named, so no
 * page it creates takes the id of one it created before. Everything runs on the directory's thread.
 */
final class PageRebuild {

    /** How long to wait before asking again when no peer holds the root or a page yet. */
    static final long RETRY_MS = 200;
    /** After how many rounds without a root from every peer a node of the creation loads it all the same. */
    static final int LOAD_AFTER_TRIES = 25;
    /** How many pages are asked for at once. */
    static final int IN_FLIGHT = 32;
    /** How long one fetch waits for its answer. */
    static final long FETCH_TIMEOUT_MS = 5_000;
    /** How many change numbers past the highest seen numbering resumes (changes only a silent peer knows of). */
    static final long SKIP = 1L << 20;

    private static final Logger LOG = LoggerFactory.getLogger(PageRebuild.class);

    private final String self;
    private final int position;
    private final List<String> peers;
    private final PageNetwork net;
    private final Consumer<Runnable> thread;
    private final Supplier<MetaState> latest;
    private final Consumer<Result> done;
    private final Creation creation;
    private final NodeCopies scratch;
    private final Deque<Want> wants = new ArrayDeque<>();
    private final int[] created = {0};
    private long highest;
    private long change = -1;
    private int tries;
    private final Set<Long> told = new HashSet<>();
    private int asking;
    private int waiting;
    private boolean finished;
    private long walkStarted;
    private Map<Long, Page> creationPages;
    private final Map<Long, Map<String, PageBatch>> records = new LinkedHashMap<>();
    private final Map<Long, Page> recorded = new HashMap<>();
    private final List<Long> recordedRoots = new ArrayList<>();
    private int fetched;
    private int rebuilt;

    /**
     * What the rebuild left.
     *
     * @param copies   the copies, in memory only
     * @param reserved the counter this node's change numbers resume at
     * @param fetched  the pages fetched from peers
     * @param rebuilt  the pages rebuilt from the metadata
     * @param records  the records of this node's changes its peers held (changes it had written to some of them when
     *                 it lost its copies), to be finished: every node's batch, by change
     */
    record Result(NodeCopies copies, long reserved, int fetched, int rebuilt,
            Map<Long, Map<String, PageBatch>> records) {
    }

    /**
     * The creation's tree, which a node of the creation loads itself while no other data node holds a root.
     *
     * @param seen   the state in which this node saw the metadata show the cluster as created, with it among the data
     *               nodes; {@code null} if it saw none
     * @param fanout the fanout the tree was created with
     * @param load   loads it
     */
    record Creation(Supplier<MetaState> seen, int fanout, Runnable load) {

        /**
         * The creation's pages, as the nodes of the creation load them.
         *
         * @return every page by id, none if this node saw no creation
         */
        Map<Long, Page> pages() {
            MetaState s = seen.get();
            Map<Long, Page> out = new HashMap<>();
            if (s != null) {
                List<BulkLoad.Leaf> leaves = s.ranges().stream()
                        .map(r -> new BulkLoad.Leaf(r.id(), r.low(), r.owner())).toList();
                BulkLoad.load(leaves, fanout, Layout.FAT_BTREE, s.created().dataNodes()).values()
                        .forEach(c -> out.putAll(c.pages()));
            }
            return out;
        }
    }

    /** A page to fetch: its parent's entry for it, and the parent. */
    private record Want(Page parent, int slot) {
        Entry entry() {
            return parent.entries().get(slot);
        }

        byte[] high() {
            return slot + 1 < parent.entries().size() ? parent.entries().get(slot + 1).low() : parent.high();
        }
    }

    /**
     * A rebuild; {@link #start} starts it.
     *
     * @param self     this node
     * @param position its position among the data nodes
     * @param peers    the other data nodes
     * @param net      the page network that carries the fetches
     * @param thread   runs a task on the directory's thread
     * @param latest   the newest committed metadata the node applied
     * @param done     takes the result, on the directory's thread
     * @param creation whether this node saw the cluster as created, and what loads the creation's tree
     */
    PageRebuild(String self, int position, List<String> peers, PageNetwork net, Consumer<Runnable> thread,
            Supplier<MetaState> latest, Consumer<Result> done, Creation creation) {
        this.self = self;
        this.position = position;
        this.peers = List.copyOf(peers);
        this.net = net;
        this.thread = thread;
        this.latest = latest;
        this.done = done;
        this.creation = creation;
        this.scratch = new NodeCopies(self, null);
    }

    /** Asks the peers for their roots. */
    void start() {
        ask(peers, PageFetch.ROOT, this::rootsAnswered);
    }

    /** Asks nodes for a page; the answers by node (none from one that did not answer) go to the directory's thread. */
    private void ask(List<String> nodes, long page, Consumer<Map<String, PageFetch.Answer>> then) {
        List<CompletableFuture<PageFetch.Answer>> asks = nodes.stream().map(n -> net.fetch(self, n, page)
                .orTimeout(FETCH_TIMEOUT_MS, TimeUnit.MILLISECONDS).exceptionally(e -> null)).toList();
        CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new)).whenComplete((v, e) -> thread.accept(() -> {
            Map<String, PageFetch.Answer> answers = new LinkedHashMap<>();
            for (int i = 0; i < nodes.size(); i++) {
                PageFetch.Answer a = asks.get(i).join();
                if (a != null) {
                    answers.put(nodes.get(i), a);
                }
            }
            then.accept(answers);
        }));
    }

    private void rootsAnswered(Map<String, PageFetch.Answer> answers) {
        noteHighest(answers.values());
        records.clear();
        recorded.clear();
        recordedRoots.clear();
        Set<Long> released = new HashSet<>();
        answers.values().forEach(a -> released.addAll(a.released()));
        answers.values().forEach(a -> a.records().forEach((c, r) -> {
            if (!released.contains(c)) {
                keep(c, r);
            }
        }));
        long peersAt = answers.values().stream().mapToLong(PageFetch.Answer::version).max().orElse(0);
        if (latest.get().version() < peersAt) {
            retry("its metadata is at v" + latest.get().version() + ", a peer's at v" + peersAt, this::start);
            return;
        }
        change = (highest >>> 8) + SKIP << 8 | position;
        if (creation.seen().get() != null && answers.size() == peers.size()
                && FatBtreeDirectory.asCreated(latest.get())) {
            creation.load().run(); // no range split or moved: the tree is still the creation's wherever it is held
            return;
        }
        Page root = Stream.concat(answers.values().stream().map(PageFetch.Answer::page),
                recordedRoots.stream().map(recorded::get)).filter(Objects::nonNull)
                .max(Comparator.comparingInt(Page::level).thenComparingLong(Page::version)).orElse(null);
        if (root == null) {
            noRoot(answers);
            return;
        }
        List<String> silent = peers.stream().filter(n -> !answers.containsKey(n)
                && !MetaRoutes.failed(latest.get(), n)).toList();
        if (!silent.isEmpty()) {
            retry(silent + " did not answer and are not declared failed (one may keep the record of a change this "
                    + "node had under way)", this::start);
            return;
        }
        tries = 0;
        walkStarted = System.nanoTime();
        if (root.copySet().contains(self)) {
            scratch.apply(new PageBatch(root.version(), List.of(root), List.of(), root.id()));
            fetched++;
            wantChildren(root);
        }
        next();
    }

    /**
     * Keeps the record of a change of this node that a peer applied a batch of and was not released from: this node
     * wrote it to some nodes, maybe not to all, when it lost its copies (unless another peer was released from it: it
     * was written everywhere, and its pages may have moved on since). Every page it wrote counts as a copy (the
     * newest wins), so the walk finds the pages no holder got; once done, the change is sent again to every node it
     * writes ({@link FatBtreeNode#restarted}) before any lock of it is released.
     */
    private void keep(long changed, Map<String, PageBatch> batches) {
        if (records.putIfAbsent(changed, batches) != null) {
            return;
        }
        highest = Math.max(highest, changed);
        if (told.add(changed)) {
            LOG.warn("{}: its index change {} (writing {}) was under way when it lost its copies; a peer kept its "
                    + "record: it is finished from it", self, changed, batches.keySet());
        }
        for (PageBatch b : batches.values()) {
            b.puts().forEach(p -> recorded.merge(p.id(), p, (x, y) -> x.version() >= y.version() ? x : y));
            if (b.root() >= 0) {
                recordedRoots.add(b.root());
            }
        }
    }

    /**
     * No peer holds a root. While every peer that answered is taking its copies up too (a cluster's first start), a
     * node that saw the creation loads it once every peer answered, or after {@link #LOAD_AFTER_TRIES} rounds in
     * which some did not (a peer down at the first start); it then reconciles its leaves with the metadata, which may
     * have moved on. Otherwise, once every peer answered and at least one of them is not taking its copies up (it holds
     * rightly nothing, so every leaf was this node's or that of a peer taking up too), the first in id order among
     * this node and the peers taking their copies up rebuilds the whole tree from the metadata; the others then find
     * its root. While every peer is taking up and this node saw no creation, it waits for one that did to load it.
     */
    private void noRoot(Map<String, PageFetch.Answer> answers) {
        boolean all = answers.size() == peers.size();
        if (creation.seen().get() != null && answers.values().stream().allMatch(PageFetch.Answer::takingUp)
                && (all || tries >= LOAD_AFTER_TRIES)) {
            creation.load().run();
            return;
        }
        boolean first = answers.entrySet().stream().filter(e -> e.getValue().takingUp())
                .allMatch(e -> self.compareTo(e.getKey()) < 0);
        boolean settled = peers.isEmpty() || answers.values().stream().anyMatch(a -> !a.takingUp());
        if (all && first && settled) {
            wholeTree(latest.get());
            finish();
            return;
        }
        retry("no other data node holds a root yet (" + answers.size() + " of " + peers.size() + " answered)",
                this::start);
    }

    /** The whole tree from the metadata's ranges, every leaf this node's (Reconcile moves them to their owners). */
    private void wholeTree(MetaState s) {
        List<Entry> leaves = s.ranges().stream().map(r -> new Entry(r.low(), r.id(), List.of(self))).toList();
        int level = 1;
        while (Math.pow(Math.max(3, creation.fanout()), level) < leaves.size()) {
            level++;
        }
        Entry top = new Entry(new byte[0], StructureChanges.pageId(change, level, created[0]++), List.of(self));
        RebuiltPages.fromLeaves(scratch, top, null, level, leaves, 1, change, created);
        scratch.apply(new PageBatch(1, List.of(scratch.page(top.child())), List.of(), top.child()));
        rebuilt = scratch.pages().size();
        LOG.warn("{}: no other data node holds an index page: every leaf was this node's; the whole tree is rebuilt "
                + "from the {} ranges of metadata v{}", self, leaves.size(), s.version());
    }

    private void wantChildren(Page p) {
        for (int i = 0; p.level() > 1 && i < p.entries().size(); i++) {
            if (p.entries().get(i).copySet().contains(self)) {
                wants.add(new Want(p, i));
            }
        }
    }

    /**
     * Fetches the pages wanted, up to {@link #IN_FLIGHT} at once, or ends once none is wanted, asked or waited for.
     */
    private void next() {
        while (asking < IN_FLIGHT && !wants.isEmpty()) {
            Want w = wants.poll();
            List<String> holders = w.entry().copySet().stream().filter(n -> !n.equals(self)).toList();
            if (!holders.isEmpty()) {
                asking++;
                ask(holders, w.entry().child(), answers -> pageAnswered(w, holders, answers));
                continue;
            }
            MetaState s = latest.get();
            if (Arrays.equals(s.rangeOf(w.entry().low()).low(), w.entry().low())) {
                fromMetadata(w);
            } else {
                later(w, "page " + w.entry().child() + " starts at " + Keys.render(w.entry().low())
                        + ", inside a range of its metadata v" + s.version() + " (behind the tree)");
            }
        }
        if (asking == 0 && waiting == 0 && wants.isEmpty() && !finished) {
            finished = true;
            finish();
        }
    }

    private void pageAnswered(Want w, List<String> holders, Map<String, PageFetch.Answer> answers) {
        asking--;
        noteHighest(answers.values());
        Page p = Stream.concat(answers.values().stream().map(PageFetch.Answer::page),
                Stream.of(recorded.get(w.entry().child()))).filter(Objects::nonNull)
                .max(Comparator.comparingLong(Page::version)).orElse(null);
        if (p == null && answers.size() == holders.size()
                && answers.values().stream().allMatch(PageFetch.Answer::takingUp)) {
            p = fromCreation(w);
        }
        if (p == null) {
            later(w, "page " + w.entry().child() + " is held by " + holders + ", and none answered with it yet");
        } else {
            tries = 0;
            take(p);
        }
        next();
    }

    private void take(Page p) {
        scratch.apply(new PageBatch(p.version(), List.of(p), List.of(), -1));
        fetched++;
        wantChildren(p);
    }

    /** Wants a page again after a while. */
    private void later(Want w, String why) {
        waiting++;
        retry(why, () -> {
            waiting--;
            wants.add(w);
            next();
        });
    }

    /**
     * The creation's copy of a page every holder answered it does not hold (they are taking up their copies too, as
     * at the cluster's first start): nobody could change it meanwhile, so all take the creation's, if the page was
     * part of it between the same fences; batches of changes under way bring it forward.
     */
    private Page fromCreation(Want w) {
        if (creationPages == null) {
            creationPages = creation.pages();
        }
        Page p = creationPages.get(w.entry().child());
        boolean same = p != null && Arrays.equals(p.low(), w.entry().low())
                && (p.high() == null ? w.high() == null : w.high() != null && Arrays.equals(p.high(), w.high()));
        if (same) {
            LOG.info("{}: no holder of index page {} holds it yet; taking the creation's copy", self, p.id());
        }
        return same ? p : null;
    }

    /** A page only this node held: rebuilt from the metadata's ranges between its fences, all this node's leaves. */
    private void fromMetadata(Want w) {
        MetaState s = latest.get();
        byte[] low = w.entry().low();
        byte[] high = w.high();
        List<Entry> leaves = new ArrayList<>();
        for (RangeDescriptor r = s.rangeOf(low); r != null && (high == null || Keys.compare(r.low(), high) < 0);
                r = r.high() == null ? null : s.rangeOf(r.high())) {
            leaves.add(new Entry(r.low(), r.id(), List.of(self)));
        }
        int before = scratch.pages().size();
        RebuiltPages.fromLeaves(scratch, w.entry(), high, w.parent().level() - 1, leaves, w.parent().version(),
                change, created);
        rebuilt += scratch.pages().size() - before;
        LOG.info("{}: index page {} (level {}, from {}) was held here only; rebuilt from the {} ranges the metadata "
                + "lists under it", self, w.entry().child(), w.parent().level() - 1, Keys.render(low), leaves.size());
    }

    private void noteHighest(Collection<PageFetch.Answer> answers) {
        answers.forEach(a -> highest = Math.max(highest, a.highest()));
    }

    /**
     * Asks again after {@link #RETRY_MS}: said at INFO the first time (peers starting at once, as at a cluster's first
     * start), at WARN once it lasts a second, and every 5 s after that.
     */
    private void retry(String why, Runnable again) {
        int n = tries++;
        if (n == 0) {
            LOG.info("{}: taking its index copies up from its peers: {}; asking again every {} ms", self, why,
                    RETRY_MS);
        } else if (n % 25 == 5) {
            LOG.warn("{}: taking its index copies up from its peers, still: {} ({} tries); asking again every {} ms",
                    self, why, n, RETRY_MS);
        }
        CompletableFuture.delayedExecutor(RETRY_MS, TimeUnit.MILLISECONDS).execute(() -> thread.accept(again));
    }

    private void finish() {
        if (walkStarted != 0) {
            LOG.info("{}: {} index pages taken up in {} ms from the root's answer on ({} fetched, {} rebuilt from the "
                    + "metadata)", self, scratch.pages().size(), (System.nanoTime() - walkStarted) / 1_000_000,
                    fetched, rebuilt);
        }
        long resume = Math.max((highest >>> 8) + SKIP, (change >>> 8) + 1);
        done.accept(new Result(scratch, resume, fetched, rebuilt, records));
    }
}
