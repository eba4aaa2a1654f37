package org.autodisk.node.meta;

/** What a range is doing; only a serving range takes every request. */
public enum RangeState {
    /** Its owner serves it. */
    SERVING,
    /** Being split (reserved for splits that move data). */
    SPLITTING,
    /** Being moved to another owner (the migration issue). */
    MIGRATING,
    /** Its new owner recovers it before serving (failover). */
    RECOVERING
}
