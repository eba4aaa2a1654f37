package org.autodisk.node.queue;

import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * The queue between the network and the workers. New requests are admitted only while fewer than
 * {@link #capacity()} wait, so a full queue is refused at once and never blocks the caller. Continuations of
 * requests already admitted (a forwarded reply, the next step of a traverse) go through {@link #execute}.
 */
public interface RequestQueue extends Executor {

    /**
     * Admits a new request if there is room.
     *
     * @param request the work
     * @return false if the queue is full or shut down (the caller answers OVERLOADED or SHUTTING_DOWN)
     */
    boolean offer(Runnable request);

    /**
     * Runs a continuation of admitted work on a worker, without the capacity check.
     *
     * @param continuation the work
     */
    @Override
    void execute(Runnable continuation);

    /**
     * Returns how many new requests wait now.
     *
     * @return the depth
     */
    int depth();

    /**
     * Returns the admission limit.
     *
     * @return queue.capacity
     */
    int capacity();

    /**
     * Stops admitting, lets the workers finish what is queued, then stops them.
     *
     * @param drainTimeout how long to wait for the queue to drain
     * @return true if everything queued was run
     */
    boolean shutdown(Duration drainTimeout);

    /**
     * Creates a queue served by worker threads.
     *
     * @param name     thread name prefix (the node id)
     * @param capacity admission limit
     * @param workers  worker threads
     * @return the started queue
     */
    static RequestQueue workers(String name, int capacity, int workers) {
        return new WorkerPoolQueue(name, capacity, workers);
    }
}
