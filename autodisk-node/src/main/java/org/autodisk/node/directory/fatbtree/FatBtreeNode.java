package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One data node's part of the Fat-Btree: its copies, the locks on them, and the structure changes it carries out as
 * a leaf's owner - one at a time, in the order the metadata committed them - under MARK-OPT's locks: X on every copy
 * of the highest page the change rewrites (its mark), requested node by node in id order, and IX on its own copies
 * above; holding them it plans again, starts over if the tree moved under it, writes, and releases once every node
 * that got a batch has applied it. With locking off it writes at once from its own copies (the schedule that loses
 * updates, kept for the tests that show it).
 */
final class FatBtreeNode {

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
    private int retries;
    private boolean stalled;

    FatBtreeNode(NodeCopies copies, Layout layout, List<String> nodes, int fanout, PageNetwork net,
            boolean locking) {
        this.self = copies.self();
        this.copies = copies;
        this.layout = layout;
        this.nodes = List.copyOf(nodes);
        this.net = net;
        this.locking = locking;
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
            case PageMessage.LockRequest r -> locks.acquire(r.change(), List.of(new PageLocks.Lock(r.page(), true)),
                    () -> net.send(self, from, new PageMessage.LockGranted(r.change())));
            case PageMessage.LockGranted g -> waiting.get(g.change()).granted();
            case PageMessage.Release r -> locks.release(r.change());
            case PageMessage.Batch b -> {
                copies.apply(b.batch());
                net.send(self, from, new PageMessage.Applied(b.batch().change()));
                resume();
            }
            case PageMessage.Applied a -> {
                Op op = waiting.get(a.change());
                if (op != null) {
                    op.applied();
                }
            }
        }
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

    /**
     * Tells whether this node has no change under way and holds or awaits no lock.
     *
     * @return true when idle
     */
    boolean idle() {
        return queued.isEmpty() && waiting.isEmpty() && locks.idle() && !stalled;
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

    /** One change on this node: plan, lock node by node, plan again, write, release. */
    private final class Op {

        private final long change;
        private final byte[] key;
        private final Function<NodeCopies, StructureChanges.Plan> planner;
        private List<String> targets = List.of();
        private int next;
        private Page mark;
        private int awaiting;

        Op(long change, byte[] key, Function<NodeCopies, StructureChanges.Plan> planner) {
            this.change = change;
            this.key = key;
            this.planner = planner;
        }

        void start() {
            StructureChanges.Plan plan = plan();
            if (plan == null) {
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
            if (n.equals(self)) {
                List<PageLocks.Lock> own = ownLocks();
                if (own == null) {
                    retries++;
                    release();
                    waiting.remove(change);
                    start();
                    return;
                }
                locks.acquire(change, own, this::granted);
            } else {
                net.send(self, n, new PageMessage.LockRequest(change, mark.id()));
            }
        }

        /** X on the mark and IX on this node's copies above it, or null if a change meanwhile took the path away. */
        private List<PageLocks.Lock> ownLocks() {
            List<PageLocks.Lock> out = new ArrayList<>(List.of(new PageLocks.Lock(mark.id(), true)));
            List<Page> path;
            try {
                path = copies.pathTo(key);
            } catch (IllegalStateException gone) {
                return null;
            }
            path.stream().filter(p -> p.level() > mark.level())
                    .forEach(p -> out.add(new PageLocks.Lock(p.id(), false)));
            return out;
        }

        void granted() {
            next++;
            lockNext();
        }

        /**
         * Plans from this node's copies, or stalls until the next batch while they do not show the leaf as this
         * node's yet (the move that gave it the leaf, earlier in the log, is still on its way).
         */
        private StructureChanges.Plan plan() {
            try {
                if (layout == Layout.FAT_BTREE && !ownedInCopies()) {
                    stalled = true;
                    return null;
                }
                return planner.apply(copies);
            } catch (IllegalStateException behind) {
                stalled = true;
                return null;
            }
        }

        private boolean ownedInCopies() {
            Page p = copies.pathTo(key).get(0);
            return p.entries().get(p.slot(key)).copySet().get(0).equals(self);
        }

        private void locked() {
            StructureChanges.Plan plan = plan();
            if (plan == null) {
                release();
                waiting.remove(change);
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
            awaiting = changes.carryOut(copies, plan, change).messages();
            if (awaiting == 0) {
                written();
            }
        }

        void applied() {
            if (--awaiting == 0) {
                written();
            }
        }

        /** Every node that got a batch applied it: only now may another change lock these pages. */
        private void written() {
            waiting.remove(change);
            release();
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
