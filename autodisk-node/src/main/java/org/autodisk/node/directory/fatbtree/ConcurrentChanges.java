package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Runs every data node's {@link FatBtreeNode} of a cluster in one process and delivers their messages in a seeded
 * random order (first in, first out between two nodes, as on a connection). The metadata commits changes in order;
 * each commit reaches its leaf's owner as one more message, so owners start their changes at different moments.
 */
final class ConcurrentChanges implements PageNetwork {

    private static final String META = "metadata";

    private final PageCluster cluster;
    private final Random rnd;
    private final Map<String, FatBtreeNode> nodes = new LinkedHashMap<>();
    private final Map<String, Deque<Runnable>> queues = new LinkedHashMap<>();
    private int lockMessages;
    private int batches;

    ConcurrentChanges(PageCluster cluster, boolean locking, long seed) {
        this(cluster, locking, seed, cluster.nodes().size());
    }

    /**
     * Runs a cluster whose nodes after the first {@code created} joined later: each of those knows the nodes of the
     * creation and itself, as a node does that started before the others joined.
     */
    ConcurrentChanges(PageCluster cluster, boolean locking, long seed, int created) {
        this.cluster = cluster;
        this.rnd = new Random(seed);
        List<String> first = cluster.nodes().subList(0, created);
        cluster.copies().forEach((id, copies) -> {
            List<String> known = new ArrayList<>(first);
            if (!known.contains(id)) {
                known.add(id);
            }
            nodes.put(id, new FatBtreeNode(copies, cluster.layout(), known, cluster.fanout(), this, locking, 0, null));
        });
    }

    @Override
    public void send(String from, String to, PageMessage m) {
        if (m instanceof PageMessage.Batch) {
            batches++;
        } else if (!(m instanceof PageMessage.Applied)) {
            lockMessages++;
        }
        enqueue(from, to, () -> nodes.get(to).receive(from, m));
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
            enqueue(META, leaf.owner(), () -> nodes.get(leaf.owner()).split(change, leaf.id(), at, right));
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
        enqueue(META, leaf.owner(), () -> nodes.get(leaf.owner()).move(change, leaf.id(), low, to));
    }

    /** Delivers messages in random order until none is left; every change must be done by then. */
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
        nodes.forEach((id, n) -> {
            if (!n.idle()) {
                throw new IllegalStateException(id + ": a change did not finish (a lock never granted)");
            }
        });
    }

    int lockMessages() {
        return lockMessages;
    }

    int batches() {
        return batches;
    }

    int retries() {
        return nodes.values().stream().mapToInt(FatBtreeNode::retries).sum();
    }
}
