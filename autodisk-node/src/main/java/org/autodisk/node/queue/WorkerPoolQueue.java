package org.autodisk.node.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RequestQueue} on a linked blocking queue with a fixed pool of platform worker threads. Admission is
 * counted separately from continuations, so continuations never fail and new work is bounded.
 */
final class WorkerPoolQueue implements RequestQueue {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerPoolQueue.class);
    private static final Runnable POISON = () -> { };

    private final String name;
    private final int capacity;
    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger admitted = new AtomicInteger();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean accepting = true;

    WorkerPoolQueue(String name, int capacity, int workers) {
        this.name = name;
        this.capacity = capacity;
        for (int i = 0; i < workers; i++) {
            Thread t = new Thread(this::work, name + "-worker-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    @Override
    public boolean offer(Runnable request) {
        if (!accepting) {
            return false;
        }
        if (admitted.incrementAndGet() > capacity) {
            admitted.decrementAndGet();
            return false;
        }
        queue.add(new Admitted(request));
        return true;
    }

    @Override
    public void execute(Runnable continuation) {
        queue.add(continuation);
    }

    @Override
    public int depth() {
        return admitted.get();
    }

    @Override
    public int capacity() {
        return capacity;
    }

    private void work() {
        while (true) {
            Runnable task;
            try {
                task = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (task == POISON) {
                return;
            }
            runSafely(task);
        }
    }

    private void runSafely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            LOG.error("{}: a queued task failed", name, e);
        }
    }

    @Override
    public boolean shutdown(Duration drainTimeout) {
        accepting = false;
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        boolean drained = waitUntilEmpty(deadline);
        for (int i = 0; i < threads.size(); i++) {
            queue.add(POISON);
        }
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return drained;
    }

    private boolean waitUntilEmpty(long deadline) {
        while (admitted.get() > 0 || !queue.isEmpty()) {
            if (System.nanoTime() > deadline) {
                LOG.warn("{}: {} requests still queued at the end of the drain timeout", name, admitted.get());
                return false;
            }
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    private final class Admitted implements Runnable {
        private final Runnable request;

        Admitted(Runnable request) {
            this.request = request;
        }

        @Override
        public void run() {
            admitted.decrementAndGet();
            request.run();
        }
    }
}
