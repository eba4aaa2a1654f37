package org.autodisk.node.backup;

/** Decides when a log node catches a data node's backups up: the node asks its rules (catch-up.drl). */
@FunctionalInterface
public interface CatchUpPolicy {

    /**
     * Tells whether to catch a stream's backups up now.
     *
     * @param stream     the data node whose log it is
     * @param backups    its backup nodes, comma-separated
     * @param lag        records logged but not yet applied to the backups
     * @param idleMillis how long the log node has received no appends
     * @return true to replay the log into the backups now
     */
    boolean catchUpNow(String stream, String backups, long lag, long idleMillis);
}
