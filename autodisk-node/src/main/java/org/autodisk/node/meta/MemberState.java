package org.autodisk.node.meta;

/** Where a member stands, as the cluster agreed. */
public enum MemberState {
    /** Known to the cluster, not yet serving. */
    JOINING,
    /** Serving. */
    UP,
    /** Missed by an observer (failure detection). */
    SUSPECTED,
    /** Declared failed: its ranges fail over. */
    FAILED,
    /** Being removed. */
    LEAVING
}
