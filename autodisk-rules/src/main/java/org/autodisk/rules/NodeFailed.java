package org.autodisk.rules;

import java.util.List;

/**
 * A member the cluster declared failed (a majority of the other members that are up stopped hearing it), raised on
 * the failover coordinator (the lowest-id data node that is up) at every failure check while the failed node still
 * owns or backs up ranges. {@code failover.drl} decides what happens: promote each owned range's backup, take the
 * node off the ranges it backs up; a rule may hold it back ({@code actions.holdFailover}).
 *
 * @param nodeId      the failed node
 * @param role        {@code data} or {@code log}
 * @param failedForMs how long ago it was declared failed, as the coordinator saw it
 * @param owned       the ranges it owns
 * @param backedUp    the ranges it backs up
 */
public record NodeFailed(String nodeId, String role, long failedForMs, List<FailedRange> owned,
        List<FailedRange> backedUp) {

    /** Copies the lists. */
    public NodeFailed {
        owned = List.copyOf(owned);
        backedUp = List.copyOf(backedUp);
    }

    /**
     * Tells whether the node is a data node.
     *
     * @return true for a data node
     */
    public boolean dataNode() {
        return "data".equals(role);
    }
}
