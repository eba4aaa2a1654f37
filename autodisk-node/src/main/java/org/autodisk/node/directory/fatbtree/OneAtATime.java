package org.autodisk.node.directory.fatbtree;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * Work carried out one item at a time, in the order queued: the head is started, and the next once the head said it
 * finished; an item that finishes as it starts lets the next start in a loop, not a recursion.
 *
 * @param <T> the items
 */
final class OneAtATime<T> {

    private final Deque<T> queued = new ArrayDeque<>();
    private final Consumer<T> start;
    private boolean starting;

    /**
     * An empty queue.
     *
     * @param start starts an item once it is at the head
     */
    OneAtATime(Consumer<T> start) {
        this.start = start;
    }

    /**
     * Queues an item, started at once if the queue was empty.
     *
     * @param item the item
     */
    void add(T item) {
        queued.add(item);
        if (queued.size() == 1) {
            startHead();
        }
    }

    /**
     * Queues an item behind the head while the head is finishing (it starts once the head said so).
     *
     * @param item the item
     */
    void addBehind(T item) {
        queued.add(item);
    }

    /** The head finished: the next item starts. */
    void finished() {
        queued.poll();
        startHead();
    }

    /**
     * Returns the item at the head.
     *
     * @return the head, {@code null} if none
     */
    T head() {
        return queued.peek();
    }

    /**
     * Tells whether nothing is queued.
     *
     * @return true if empty
     */
    boolean isEmpty() {
        return queued.isEmpty();
    }

    private void startHead() {
        if (starting) {
            return;
        }
        starting = true;
        try {
            T started = null;
            while (queued.peek() != null && queued.peek() != started) {
                started = queued.peek();
                start.accept(started);
            }
        } finally {
            starting = false;
        }
    }
}
