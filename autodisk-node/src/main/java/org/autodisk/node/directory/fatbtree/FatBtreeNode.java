package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.autodisk.node.meta.MetaState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One data node's part of the Fat-Btree: its copies, the locks on them, and the structure changes it carries out as
 * a leaf's owner - one at a time, in the order the metadata committed them - under MARK-OPT's locks: X on every copy
 * of the highest page the change rewrites (its mark), requested node by node in id order, and IX on its own copies
 * above; holding them it plans again, starts over if the tree moved under it, writes, and releases once every node
 * that got a batch has applied it. With locking off it writes at once from its own copies (the schedule that loses
 * updates, kept for the tests that show it).
 *
 * <p>Following the metadata, a node reconciles the leaves its copies name it the owner of with the newest committed
 * state ({@link Reconcile}), one change at a time. Before it writes a change it records every node's batch in its
 * page store; once all applied theirs it forgets it. After a restart it applies and sends again what it recorded,
 * then tells every node it restarted: they release the locks of its old changes and ask again what they await from
 * it. Every message handler takes a message twice without harm (a message is sent again until taken).
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
    private final Deque<Op> queued = new ArrayDeque<>();
    private final Map<Long, Op> waiting = new HashMap<>();
    /** Changes put aside before they wrote anything: a node they must lock is declared failed. */
    private final List<Op> parked = new ArrayList<>();
    private final PageStore store;
    private final ChangeNumbers numbers;
    private final Supplier<MetaState> latest;
    private int retries;
    private boolean stalled;

    FatBtreeNode(NodeCopies copies, Layout layout, List<String> nodes, int fanout, PageNetwork net,
            boolean locking) {
        this(copies, layout, nodes, fanout, net, locking, 0, null);
    }

    /**
     * A node that follows the metadata; its pending changes and change numbers go to its copies' store.
     *
     * @param copies   its copies
     * @param layout   the layout
     * @param nodes    every data node
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
        this.numbers = new ChangeNumbers(store, Math.max(0, nodes.indexOf(self)), reserved);
        this.latest = latest;
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

    /**
     * Applies a peer's batch and answers it, then reconciles the leaves it made this node's (a move to it): the
     * metadata may have changed them since.
     */
    private void took(String from, PageBatch batch) {
        Set<Long> had = new HashSet<>();
        copies.ownLeavesUnder(batch).forEach(e -> had.add(e.child()));
        copies.apply(batch);
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

    /**
     * Queues the reconciliation of the tree's leaf that holds a key with the newest metadata (nothing happens if this
     * node's copies do not name it the owner, or the leaf agrees).
     *
     * @param key a key of the leaf
     */
    void reconcile(byte[] key) {
        queue(new Op(numbers.next(), key, null));
    }

    /**
     * Goes on after a restart: applies and sends again every change this node recorded but did not see applied
     * everywhere, then tells every other node it restarted.
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
        nodes.stream().filter(n -> !n.equals(self)).forEach(n -> net.send(self, n, new PageMessage.Restarted()));
    }

    /**
     * Queues the split of a leaf this node owns.
     *
     * @param change the change's number
     * @param leaf   the leaf's range id
     * @param at     the split key
     * @param right  the right half's range id
     */
    void split(long change, long leaf, byte[] at, long right) {
        queue(new Op(change, at, c -> changes.planSplit(c, leaf, at, right, change)));
    }

    /**
     * Queues the move of a leaf this node owns.
     *
     * @param change the change's number
     * @param leaf   the leaf's range id
     * @param low    the leaf's low key
     * @param to     the new owner
     */
    void move(long change, long leaf, byte[] low, String to) {
        queue(new Op(change, low, c -> changes.planMove(c, leaf, low, to, change)));
    }

    /** Tells whether this node has no change under way, queued or put aside, and holds or awaits no lock. */
    boolean idle() {
        return queued.isEmpty() && waiting.isEmpty() && locks.idle() && !stalled && parked.isEmpty();
    }

    /**
     * Follows the members' states: the change under way puts itself aside if it awaits the lock of a member now
     * declared failed, and the changes put aside start again once no member they waited for is failed.
     */
    void membersChanged() {
        Op head = queued.peek();
        if (head != null && head.awaitsFailed()) {
            head.park(true);
        }
        List<Op> again = parked.stream().filter(op -> !failed(op.blocker)).toList();
        parked.removeAll(again);
        // under a new number: a grant of the old one may still come, after which the release sent drops that lock
        again.forEach(op -> queue(new Op(numbers.next(), op.key, op.planner)));
    }

    /** Whether the metadata declares a member failed (a node that follows no metadata knows of none). */
    private boolean failed(String node) {
        return latest != null && FatBtreeDirectory.failed(latest.get(), node);
    }

    int retries() {
        return retries;
    }

    /**
     * Plans the change at the head of the queue again after a batch came, if it waited for one: its leaf was not yet
     * where this node's copies put it (the batch of an earlier change by another node, a move to this node, was still
     * on its way).
     */
    private void resume() {
        if (stalled) {
            stalled = false;
            queued.peek().start();
        }
    }

    private void queue(Op op) {
        queued.add(op);
        if (queued.size() == 1) {
            op.start();
        }
    }

    private void finished() {
        queued.poll();
        if (!queued.isEmpty()) {
            queued.peek().start();
        }
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
        private String blocker;
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
            if (failed(n)) {
                park(false);
                return;
            }
            asking = true;
            if (n.equals(self)) {
                List<PageLocks.Lock> own = PageLocks.markAndAbove(copies, mark, key);
                if (own == null) {
                    asking = false;
                    retries++;
                    release();
                    waiting.remove(change);
                    start();
                    return;
                }
                locks.acquire(change, self, own, () -> granted(self));
            } else {
                net.send(self, n, new PageMessage.LockRequest(change, mark.id()));
            }
        }

        /** Whether this change waits for the lock of a member declared failed (it wrote nothing yet). */
        boolean awaitsFailed() {
            return asking && next < targets.size() && !targets.get(next).equals(self) && failed(targets.get(next));
        }

        /**
         * Puts this change aside, before it wrote anything, until the failed member it must lock is no longer
         * failed: it releases the locks it holds (and, if asked, the request it sent: a release drops a queued
         * request) and lets the next change of this node go on. Changes that share no page with that member are
         * not held up by it; this one plans afresh when it starts again.
         */
        void park(boolean requested) {
            blocker = targets.get(next);
            LOG.info("{}: index change {} waits until {}, declared failed, is back (it holds a page the change "
                    + "locks); this node's other changes go on", self, change, blocker);
            if (requested) {
                next++;
            }
            asking = false;
            release();
            waiting.remove(change);
            parked.add(this);
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
                net.send(self, from, new PageMessage.Batch(batches.get(from)));
            }
        }

        /**
         * Plans from this node's copies: a reconciliation from the newest metadata, or the given change, which stalls
         * until the next batch while the copies do not show the leaf as this node's yet (the move that gave it the
         * leaf, earlier in the log, is still on its way).
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
                waiting.remove(change);
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
            List.copyOf(unapplied).forEach(n -> net.send(self, n, new PageMessage.Batch(all.get(n))));
        }

        void applied(String from) {
            if (unapplied.remove(from) && unapplied.isEmpty()) {
                written();
            }
        }

        /** Every node that got a batch applied it: only now may another change lock these pages. */
        private void written() {
            store.done(change);
            waiting.remove(change);
            release();
            if (!inQueue) {
                return;
            }
            if (planner == null) {
                queued.add(new Op(numbers.next(), key, null));
                if (splitAt != null) {
                    queued.add(new Op(numbers.next(), splitAt, null));
                }
            }
            finished();
        }

        private void release() {
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
