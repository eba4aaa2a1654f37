package org.autodisk.node.directory.fatbtree;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import org.autodisk.node.meta.MetaState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One data node's part of the Fat-Btree: its copies, the locks on them, and the structure changes it carries out as
 * a leaf's owner - one at a time, in the order the metadata committed them (but for those put aside while a member
 * they wait for is declared failed) - under MARK-OPT's locks: X on every copy of the highest page the change
 * rewrites (its mark), requested node by node in id order, and IX on its own copies above; holding them it plans
 * again, starts over if the tree moved under it, writes, and releases once every node that got a batch has applied
 * it. With locking off it writes at once from its own copies (the schedule that loses updates, kept for the tests).
 *
 * <p>Following the metadata, a node reconciles the leaves its copies name it the owner of with the newest committed
 * state ({@link Reconcile}), one change at a time. Before it writes a change it records every node's batch in its
 * page store, and sends that record with each batch ({@link PeerRecords}); once all applied theirs it forgets it and
 * releases them from it. After a restart it applies and sends again what it recorded, then tells every node it
 * restarted: they release its old changes' locks and ask again what they await from it. A message taken twice does
 * no harm (a message is sent again until taken).
 */
final class FatBtreeNode {

    private static final Logger LOG = LoggerFactory.getLogger(FatBtreeNode.class);

    private final String self;
    private final NodeCopies copies;
    private final Layout layout;
    private final List<String> nodes;
    private final PageNetwork net;
    private final boolean locking;
    private final StructureChanges changes;
    private final PageLocks locks = new PageLocks();
    private final OneAtATime<Op> queued = new OneAtATime<>(Op::start);
    private final Map<Long, Op> waiting = new HashMap<>();
    private final ParkedChanges parked;
    private final PeerRecords records;
    private final PageStore store;
    private final ChangeNumbers numbers;
    private final Supplier<MetaState> latest;
    private int retries;
    private boolean stalled;

    /**
     * A node that follows the metadata; its pending changes and change numbers go to its copies' store.
     *
     * @param copies   its copies
     * @param layout   the layout
     * @param nodes    every data node, in their order (this node's position numbers its changes)
     * @param fanout   the most entries in a page
     * @param net      the page messages
     * @param locking  whether changes lock (MARK-OPT)
     * @param reserved the change numbers the store reserved before
     * @param latest   the newest committed metadata this node applied, {@code null} if it takes explicit changes only
     */
    FatBtreeNode(NodeCopies copies, Layout layout, List<String> nodes, int fanout, PageNetwork net,
            boolean locking, long reserved, Supplier<MetaState> latest) {
        this.self = copies.self();
        this.copies = copies;
        this.layout = layout;
        this.nodes = List.copyOf(nodes);
        this.net = net;
        this.locking = locking;
        this.store = copies.store();
        this.records = new PeerRecords(store);
        this.numbers = new ChangeNumbers(store, Math.max(0, nodes.indexOf(self)), reserved);
        this.latest = latest;
        this.parked = new ParkedChanges(latest);
        this.changes = new StructureChanges(layout, nodes, fanout,
                (from, to, batch) -> net.send(from, to, new PageMessage.Batch(batch)));
    }

    /**
     * Handles a message from another node.
     *
     * @param from the sender
     * @param m    the message
     */
    void receive(String from, PageMessage m) {
        records.take(from, m);
        switch (m) {
            case PageMessage.LockRequest r -> locks.acquire(r.change(), from,
                    List.of(new PageLocks.Lock(r.page(), true)),
                    () -> net.send(self, from, new PageMessage.LockGranted(r.change())));
            case PageMessage.LockGranted g -> Optional.ofNullable(waiting.get(g.change()))
                    .ifPresent(op -> op.granted(from));
            case PageMessage.Release r -> locks.release(r.change());
            case PageMessage.Batch b -> took(from, b.batch());
            case PageMessage.Applied a -> Optional.ofNullable(waiting.get(a.change()))
                    .ifPresent(op -> op.applied(from));
            case PageMessage.Restarted r -> peerRestarted(from);
        }
    }

    /** Applies a peer's batch, answers it, and reconciles the leaves it made this node's (a move to it). */
    private void took(String from, PageBatch batch) {
        Set<Long> had = new HashSet<>();
        copies.ownLeavesUnder(batch).forEach(e -> had.add(e.child()));
        if (!copies.apply(batch)) {
            store.sync(); // the record it keeps, written before, is durable before the receipt goes
        }
        net.send(self, from, new PageMessage.Applied(batch.change()));
        resume();
        if (latest != null) {
            copies.ownLeavesUnder(batch).stream().filter(e -> !had.contains(e.child()))
                    .forEach(e -> reconcile(e.low()));
        }
    }

    /** A peer restarted: its old changes' locks go, and what this node awaits from it is asked again. */
    private void peerRestarted(String from) {
        locks.releaseAll(from);
        List.copyOf(waiting.values()).forEach(op -> op.askAgain(from));
    }

    /** Returns the records of other nodes' changes this node applied. */
    PeerRecords records() {
        return records;
    }

    /** Queues the reconciliation of the leaf holding {@code key} with the newest metadata, if this node owns it. */
    void reconcile(byte[] key) {
        queue(new Op(numbers.next(), key, null));
    }

    /**
     * Goes on after a restart: applies and sends again every change this node recorded but did not see applied
     * everywhere, then tells every other node it restarted (and every node its copies name: some may have joined).
     *
     * @param pending the recorded changes and their batches by node
     */
    void restarted(Map<Long, Map<String, PageBatch>> pending) {
        pending.forEach((change, batches) -> {
            Op op = new Op(change, null, null);
            op.inQueue = false;
            PageBatch own = batches.get(self);
            if (own != null) {
                copies.apply(own);
            }
            waiting.put(change, op);
            op.send(batches);
        });
        Set<String> told = new TreeSet<>(nodes);
        copies.pages().values().forEach(p -> told.addAll(p.copySet()));
        PageMessage.Restarted restarted = new PageMessage.Restarted(List.copyOf(pending.keySet()));
        told.stream().filter(n -> !n.equals(self)).forEach(n -> net.send(self, n, restarted));
    }

    /** Queues change {@code change}: the split of leaf {@code leaf}, which this node owns, at {@code at}. */
    void split(long change, long leaf, byte[] at, long right) {
        queue(new Op(change, at, c -> changes.planSplit(c, leaf, at, right, change)));
    }

    /** Queues change {@code change}: the move of leaf {@code leaf} (low key {@code low}) to {@code to}. */
    void move(long change, long leaf, byte[] low, String to) {
        queue(new Op(change, low, c -> changes.planMove(c, leaf, low, to, change)));
    }

    /** Tells whether this node has no change under way, queued or put aside, and holds or awaits no lock. */
    boolean idle() {
        return queued.isEmpty() && waiting.isEmpty() && locks.idle() && !stalled && parked.isEmpty();
    }

    /**
     * Follows the members' states: failed members' waiting lock requests go, the change under way puts itself aside
     * if it waits for a member declared failed, and the changes put aside start again, under new numbers (a grant of
     * the old one may still come, after the release that drops it), once the member they wait for is up.
     */
    void membersChanged() {
        parked.failedMembers().forEach(locks::dropWaiting);
        Op head = queued.head();
        String blocker = head == null ? null : head.failedBlocker();
        if (blocker != null) {
            head.park(blocker, true);
        }
        parked.back().forEach(p -> queue(new Op(numbers.next(), p.key(), p.planner())));
    }

    int retries() {
        return retries;
    }

    /** Plans the head change again after a batch came if it waited for one (a move to this node on its way). */
    private void resume() {
        if (stalled) {
            stalled = false;
            queued.head().start();
        }
    }

    private void queue(Op op) {
        queued.add(op);
    }

    private void finished() {
        queued.finished();
    }

    /**
     * One change on this node: plan, lock node by node, plan again, record, write, release. A change given with its
     * planner is carried out as planned; one without reconciles the leaf of its key.
     */
    private final class Op {

        private final long change;
        private final byte[] key;
        private final Function<NodeCopies, StructureChanges.Plan> planner;
        private boolean inQueue = true;
        private List<String> targets = List.of();
        private int next;
        private boolean asking;
        private Page mark;
        private byte[] splitAt;
        private Map<String, PageBatch> batches = Map.of();
        private final Set<String> unapplied = new HashSet<>();

        Op(long change, byte[] key, Function<NodeCopies, StructureChanges.Plan> planner) {
            this.change = change;
            this.key = key;
            this.planner = planner;
        }

        void start() {
            StructureChanges.Plan plan = plan();
            if (plan == null) {
                if (planner == null) {
                    finished();
                }
                return;
            }
            if (!locking) {
                changes.carryOut(copies, plan, change);
                finished();
                return;
            }
            mark = plan.top();
            targets = plan.topHolders(layout, nodes, copies.rootId()).stream().sorted().toList();
            next = 0;
            waiting.put(change, this);
            lockNext();
        }

        private void lockNext() {
            if (next == targets.size()) {
                locked();
                return;
            }
            String n = targets.get(next);
            if (parked.failed(n)) {
                park(n, false);
                return;
            }
            asking = true;
            if (n.equals(self)) {
                List<PageLocks.Lock> own = PageLocks.markAndAbove(copies, mark, key);
                if (own == null) {
                    asking = false;
                    retries++;
                    release();
                    start();
                    return;
                }
                locks.acquire(change, self, own, () -> granted(self));
                String blocker = failedBlocker();
                if (blocker != null) {
                    park(blocker, true);
                }
            } else {
                net.send(self, n, new PageMessage.LockRequest(change, mark.id()));
            }
        }

        /**
         * The member declared failed this change waits for, before it wrote anything: the node it asked for a lock,
         * the node whose change holds a lock of this node's own copies that this change waits for, or this node if
         * it is declared failed itself (its queued requests elsewhere were dropped).
         */
        String failedBlocker() {
            if (!asking || next >= targets.size()) {
                return null;
            }
            String n = targets.get(next);
            return parked.failed(self) ? self : n.equals(self) ? locks.blockedBy(change, parked::failed)
                    : parked.failed(n) ? n : null;
        }

        /**
         * Puts this change aside, before it wrote anything, until the failed member it waits for is up: it releases
         * the locks it holds (and, if asked, the request it sent: a release drops a queued request) and lets the next
         * change of this node go on. Changes that share no page with that member are not held up by it; this one
         * plans afresh, under a new number, when it starts again.
         */
        void park(String blocker, boolean requested) {
            LOG.info("{}: index change {} waits until {}, declared failed, is up again (the change must lock a "
                    + "page it holds or locked); this node's other changes go on", self, change, blocker);
            if (requested) {
                next++;
            }
            asking = false;
            release();
            parked.park(new ParkedChanges.Parked(blocker, key, planner));
            finished();
        }

        /** A node granted the lock asked of it (a grant taken twice, or from another node, is ignored). */
        void granted(String from) {
            if (asking && next < targets.size() && targets.get(next).equals(from)) {
                asking = false;
                next++;
                lockNext();
            }
        }

        /** A node restarted: ask it again for the lock or the applied batch this change awaits from it. */
        void askAgain(String from) {
            if (asking && next < targets.size() && targets.get(next).equals(from)) {
                net.send(self, from, new PageMessage.LockRequest(change, mark.id()));
            }
            if (unapplied.contains(from)) {
                net.send(self, from, new PageMessage.Batch(batches.get(from), batches));
            }
        }

        /**
         * Plans from this node's copies: a reconciliation, or the given change, which stalls until the next batch while
         * the copies do not show the leaf as this node's yet (the move that gave it the leaf is still on its way).
         */
        private StructureChanges.Plan plan() {
            if (planner == null) {
                Reconcile.Step step = Reconcile.next(copies, latest.get(), changes, key, change);
                splitAt = step == null ? null : step.splitAt();
                return step == null ? null : step.plan();
            }
            try {
                if (layout == Layout.FAT_BTREE && !copies.ownsLeafOf(key)) {
                    stalled = true;
                    return null;
                }
                return planner.apply(copies);
            } catch (IllegalStateException behind) {
                stalled = true;
                return null;
            }
        }

        private void locked() {
            StructureChanges.Plan plan = plan();
            if (plan == null) {
                release();
                if (planner == null) {
                    finished();
                }
                return;
            }
            Page now = copies.page(mark.id());
            boolean onPath = copies.pathTo(key).stream().anyMatch(p -> p.id() == mark.id());
            if (now == null || !onPath || plan.top().level() > mark.level() || !targets.equals(layout.holders(now,
                    now.id() == copies.rootId(), nodes).stream().sorted().toList())) {
                retries++;
                release();
                start();
                return;
            }
            Map<String, PageBatch> all = changes.batches(copies, plan, change);
            store.pending(change, all);
            if (all.containsKey(self)) {
                copies.apply(all.get(self));
            }
            send(all);
        }

        /** Sends every other node its batch; done once all applied theirs. */
        void send(Map<String, PageBatch> all) {
            batches = all;
            all.keySet().stream().filter(n -> !n.equals(self)).forEach(unapplied::add);
            if (unapplied.isEmpty()) {
                written();
                return;
            }
            List.copyOf(unapplied).forEach(n -> net.send(self, n, new PageMessage.Batch(all.get(n), all)));
        }

        void applied(String from) {
            if (unapplied.remove(from) && unapplied.isEmpty()) {
                written();
            }
        }

        /** Every node that got a batch applied it: only now may another change lock these pages. */
        private void written() {
            store.done(change);
            release();
            batches.keySet().stream().filter(n -> !n.equals(self) && !targets.contains(n))
                    .forEach(n -> net.send(self, n, new PageMessage.Release(change))); // they drop its record
            if (!inQueue) {
                return;
            }
            if (planner == null) {
                queued.addBehind(new Op(numbers.next(), key, null));
                if (splitAt != null) {
                    queued.addBehind(new Op(numbers.next(), splitAt, null));
                }
            }
            finished();
        }

        /** Releases the locks this change took so far; it no longer waits for anything. */
        private void release() {
            waiting.remove(change);
            for (String n : targets.subList(0, next)) {
                if (n.equals(self)) {
                    locks.release(change);
                } else {
                    net.send(self, n, new PageMessage.Release(change));
                }
            }
        }
    }
}
