package org.autodisk.node.ledger;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

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
     * The wall clock: tasks run on a scheduler's thread.
     *
     * @param scheduler the scheduler
     * @return the timer
     */
    static LedgerTimer on(ScheduledExecutorService scheduler) {
        return (delayMillis, task) -> scheduler.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    }
}
