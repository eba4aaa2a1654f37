package org.autodisk.node.ledger;

/** The time source of the ledger protocol: the wall clock in a node, a scripted clock in the simulation. */
public interface LedgerTimer {

    /**
     * Runs a task later.
     *
     * @param delayMillis after this many milliseconds
     * @param task        the task; must not block
     */
    void schedule(long delayMillis, Runnable task);
}
