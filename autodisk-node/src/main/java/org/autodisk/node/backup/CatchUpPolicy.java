package org.autodisk.node.backup;

/** Decides when a log node catches a data node's backups up: the node asks its rules (catch-up.drl). */
@FunctionalInterface
public interface CatchUpPolicy {

    /**
     * Tells whether to catch a range's backups up now.
     *
     * @param stream     what is caught up ("range N")
     * @param backups    its backup nodes, comma-separated
     * @param lag        ledger entries settled but not yet applied to the backups
     * @param idleMillis how long the log node has received no appends
     * @return true to copy the entries to the backups now
     */
    boolean catchUpNow(String stream, String backups, long lag, long idleMillis);
}
