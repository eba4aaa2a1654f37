package org.autodisk.node.ledger;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/** The time source of the ledger protocol: the wall clock in a node, a scripted clock in the simulation. */
public interface LedgerTimer {

    /**
     * Runs a task later.
     *
     * @param delayMillis after this many milliseconds
     * @param task        the task; must not block
     */
    void schedule(long delayMillis, Runnable task);

    /**
     * Returns the time now, for leases: monotonic, in nanoseconds from an arbitrary origin.
     *
     * @return nanoseconds
     */
    default long nanoTime() {
        return System.nanoTime();
    }

    /**
     * The wall clock: tasks run on a scheduler's thread; once it is shut down (its node stopped), tasks are dropped.
     *
     * @param scheduler the scheduler
     * @return the timer
     */
    static LedgerTimer on(ScheduledExecutorService scheduler) {
        return (delayMillis, task) -> {
            if (!scheduler.isShutdown()) {
                try {
                    scheduler.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    LoggerFactory.getLogger(LedgerTimer.class).debug("dropped, the timer stopped: {}", e.toString());
                }
            }
        };
    }
}
