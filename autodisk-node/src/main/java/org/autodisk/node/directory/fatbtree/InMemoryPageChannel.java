package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Delivers page batches between nodes of one process at once, except to nodes a test holds (their batches wait in
 * order until released) or has crashed (their batches are lost).
 */
final class InMemoryPageChannel implements PageChannel {

    private final Map<String, NodeCopies> nodes;
    private final Map<String, Deque<PageBatch>> held = new ConcurrentHashMap<>();
    private final Set<String> crashed = ConcurrentHashMap.newKeySet();
    private volatile Consumer<PageBatch> tap = b -> { };

    InMemoryPageChannel(Map<String, NodeCopies> nodes) {
        this.nodes = nodes;
    }

    @Override
    public void send(String from, String to, PageBatch batch) {
        tap.accept(batch);
        if (crashed.contains(to)) {
            return;
        }
        Deque<PageBatch> queue = held.get(to);
        if (queue != null) {
            queue.add(batch);
            return;
        }
        nodes.get(to).apply(batch);
    }

    /**
     * Test hook: shows every batch sent to the given consumer.
     *
     * @param consumer the consumer
     */
    void tap(Consumer<PageBatch> consumer) {
        tap = consumer;
    }

    /**
     * Fault hook: keeps the batches for a node until {@link #release(String)}.
     *
     * @param node the node
     */
    void hold(String node) {
        held.putIfAbsent(node, new ArrayDeque<>());
    }

    /**
     * Delivers the held batches of a node in order and stops holding.
     *
     * @param node the node
     */
    void release(String node) {
        Deque<PageBatch> queue = held.remove(node);
        if (queue != null) {
            queue.forEach(nodes.get(node)::apply);
        }
    }

    /**
     * Fault hook: loses every batch for a node until {@link #restart(String)}.
     *
     * @param node the node
     */
    void crash(String node) {
        crashed.add(node);
    }

    /**
     * Lets batches reach a node again.
     *
     * @param node the node
     */
    void restart(String node) {
        crashed.remove(node);
    }
}
