package org.autodisk.node.ledger;

/** What a {@link LedgerWriter} is doing. */
public enum WriterState {
    /** Appending. */
    OPEN,
    /** Waiting for an ensemble change to commit; nothing is acknowledged meanwhile. */
    CHANGING,
    /** Stopped: no log node left, or the metadata could not be reached; recovery closes the ledger. */
    BROKEN,
    /** Stopped: a new writer fenced the ledger. */
    FENCED,
    /** Closed by its writer once every entry was acknowledged (a range split or handed over). */
    CLOSED
}
