package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Structure changes carried out at once by their leaves' owners, every message between nodes delivered in a seeded
 * random order (first in, first out between two nodes, as on a connection). The metadata commits the changes in
 * order; each owner starts its change when the scheduler delivers the commit to it. With locking on, a change takes
 * MARK-OPT's locks (X on every copy of the highest page it rewrites, requested node by node in id order; IX on its
 * own copies above), plans again holding them, retries if the tree moved under it, writes, and releases once every
 * node that got a batch acknowledged it (a node gaining pages holds no lock, and its batch must not arrive after a
 * later change's); with locking off it writes at once from its own copies - the schedule that loses updates.
 */
final class ConcurrentChanges implements PageChannel {

    private static final String META = "metadata";

    private final PageCluster cluster;
    private final StructureChanges changes;
    private final boolean locking;
    private final Random rnd;
    private final Map<String, PageLocks> locks = new LinkedHashMap<>();
    private final Map<String, Deque<Runnable>> queues = new LinkedHashMap<>();
    private final Map<String, Deque<Op>> pending = new LinkedHashMap<>();
    private final Map<Long, Op> writing = new LinkedHashMap<>();
    private int lockMessages;
    private int batches;
    private int retries;
    private int running;

    ConcurrentChanges(PageCluster cluster, boolean locking, long seed) {
        this.cluster = cluster;
        this.changes = new StructureChanges(cluster.layout(), cluster.nodes(), cluster.fanout(), this);
        this.locking = locking;
        this.rnd = new Random(seed);
        cluster.nodes().forEach(n -> locks.put(n, new PageLocks()));
    }

    @Override
    public void send(String from, String to, PageBatch batch) {
        batches++;
        enqueue(from, to, () -> {
            cluster.copies().get(to).apply(batch);
            enqueue(to, from, () -> acknowledged(batch.change()));
        });
    }

    private void acknowledged(long change) {
        Op op = writing.get(change);
        if (op != null && --op.awaiting == 0) {
            writing.remove(change);
            op.written();
        }
    }

    private void enqueue(String from, String to, Runnable delivery) {
        queues.computeIfAbsent(from + ">" + to, k -> new ArrayDeque<>()).add(delivery);
    }

    /**
     * Commits a split; its owner starts the change when the commit reaches it.
     *
     * @param at     the split key
     * @param right  the right half's range id
     * @param change the change's number
     * @return false if a leaf already starts at the key
     */
    boolean split(byte[] at, long right, long change) {
        BulkLoad.Leaf leaf = cluster.commitSplit(at, right);
        if (leaf != null) {
            commit(new Op(change, leaf.owner(), at, c -> changes.planSplit(c, leaf.id(), at, right, change)));
        }
        return leaf != null;
    }

    /**
     * Commits a move; its old owner starts the change when the commit reaches it.
     *
     * @param low    the leaf's low key
     * @param to     the new owner
     * @param change the change's number
     */
    void move(byte[] low, String to, long change) {
        BulkLoad.Leaf leaf = cluster.commitMove(low, to);
        commit(new Op(change, leaf.owner(), low, c -> changes.planMove(c, leaf.id(), low, to, change)));
    }

    private void commit(Op op) {
        running++;
        enqueue(META, op.coord, () -> arrive(op));
    }

    private void arrive(Op op) {
        Deque<Op> mine = pending.computeIfAbsent(op.coord, k -> new ArrayDeque<>());
        mine.add(op);
        if (mine.size() == 1) {
            op.start();
        }
    }

    private void finished(Op op) {
        running--;
        Deque<Op> mine = pending.get(op.coord);
        mine.poll();
        if (!mine.isEmpty()) {
            mine.peek().start();
        }
    }

    /** Delivers messages in random order until none is left and every change is done. */
    void settle() {
        List<Deque<Runnable>> busy = new ArrayList<>();
        while (true) {
            busy.clear();
            queues.values().stream().filter(q -> !q.isEmpty()).forEach(busy::add);
            if (busy.isEmpty()) {
                break;
            }
            busy.get(rnd.nextInt(busy.size())).poll().run();
        }
        if (running != 0 || locks.values().stream().anyMatch(l -> !l.idle())) {
            throw new IllegalStateException(running + " changes did not finish (a lock never granted)");
        }
    }

    int lockMessages() {
        return lockMessages;
    }

    int batches() {
        return batches;
    }

    int retries() {
        return retries;
    }

    /** One change on its coordinator: plan, lock node by node, plan again, write, release. */
    private final class Op {

        private final long change;
        private final String coord;
        private final byte[] key;
        private final Function<NodeCopies, StructureChanges.Plan> planner;
        private List<String> targets = List.of();
        private int next;
        private Page mark;
        private int awaiting;

        Op(long change, String coord, byte[] key, Function<NodeCopies, StructureChanges.Plan> planner) {
            this.change = change;
            this.coord = coord;
            this.key = key;
            this.planner = planner;
        }

        void start() {
            NodeCopies c = cluster.copies().get(coord);
            StructureChanges.Plan plan = planner.apply(c);
            if (!locking) {
                changes.carryOut(c, plan, change);
                finished(this);
                return;
            }
            mark = plan.top();
            targets = sorted(plan.topHolders(cluster.layout(), cluster.nodes(), c.rootId()));
            next = 0;
            lockNext();
        }

        private void lockNext() {
            if (next == targets.size()) {
                locked();
                return;
            }
            String n = targets.get(next);
            if (n.equals(coord)) {
                locks.get(n).acquire(change, ownLocks(), this::granted);
                return;
            }
            lockMessages++;
            List<PageLocks.Lock> x = List.of(new PageLocks.Lock(mark.id(), true));
            enqueue(coord, n, () -> locks.get(n).acquire(change, x, () -> {
                lockMessages++;
                enqueue(n, coord, this::granted);
            }));
        }

        private List<PageLocks.Lock> ownLocks() {
            List<PageLocks.Lock> out = new ArrayList<>(List.of(new PageLocks.Lock(mark.id(), true)));
            cluster.copies().get(coord).pathTo(key).stream().filter(p -> p.level() > mark.level())
                    .forEach(p -> out.add(new PageLocks.Lock(p.id(), false)));
            return out;
        }

        private void granted() {
            next++;
            lockNext();
        }

        private void locked() {
            NodeCopies c = cluster.copies().get(coord);
            StructureChanges.Plan plan = planner.apply(c);
            Page now = c.page(mark.id());
            boolean onPath = c.pathTo(key).stream().anyMatch(p -> p.id() == mark.id());
            if (now == null || !onPath || plan.top().level() > mark.level() || !targets.equals(sorted(
                    cluster.layout().holders(now, now.id() == c.rootId(), cluster.nodes())))) {
                retries++;
                unlock();
                start();
                return;
            }
            awaiting = changes.carryOut(c, plan, change).messages();
            if (awaiting == 0) {
                written();
            } else {
                writing.put(change, this);
            }
        }

        /** Every node that got a batch applied it: only now may another change lock these pages. */
        void written() {
            unlock();
            finished(this);
        }

        private void unlock() {
            for (String n : targets.subList(0, next)) {
                if (n.equals(coord)) {
                    locks.get(n).release(change);
                } else {
                    lockMessages++;
                    enqueue(coord, n, () -> locks.get(n).release(change));
                }
            }
        }

        private List<String> sorted(List<String> nodes) {
            return nodes.stream().sorted().toList();
        }
    }
}
