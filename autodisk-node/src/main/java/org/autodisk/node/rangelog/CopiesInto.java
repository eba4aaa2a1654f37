package org.autodisk.node.rangelog;

import java.time.Duration;

/**
 * What writes a range's span into a data node's store besides the range's log: the copy of a migration that moves
 * the range to this node. A backup promoted to owner stops it before it takes the range over from its backup copy,
 * so that nothing of a move the promotion ended is written over what it took over.
 */
@FunctionalInterface
public interface CopiesInto {

    /** A node that copies nothing into its store. */
    CopiesInto NONE = (rangeId, timeout) -> true;

    /**
     * Stops every copy into a range's span and waits until its last write is done; a copy that starts later writes
     * nothing (the metadata no longer has its migration).
     *
     * @param rangeId the range
     * @param timeout how long to wait
     * @return whether they all stopped within the time
     * @throws InterruptedException if interrupted
     */
    boolean stop(long rangeId, Duration timeout) throws InterruptedException;
}
