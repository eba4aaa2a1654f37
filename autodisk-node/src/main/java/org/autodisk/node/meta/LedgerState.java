package org.autodisk.node.meta;

/** Where a ledger is in its life: written by its one writer, being recovered by a new writer, or closed for good. */
public enum LedgerState {
    /** Its writer appends to it; its ensemble may change. */
    OPEN,
    /** A new writer fences and recovers it; its ensemble is frozen and its old writer can no longer change it. */
    IN_RECOVERY,
    /** Closed at its last entry: nothing past that entry belongs to it, whatever a log node holds. */
    CLOSED
}
