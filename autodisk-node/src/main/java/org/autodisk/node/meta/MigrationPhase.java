package org.autodisk.node.meta;

/** Where a migration of a range from its owner to another data node is. */
public enum MigrationPhase {
    /** The source streams a consistent snapshot of the range to the target; the source serves the range. */
    COPYING,
    /** The target replays the range's ledgers from the snapshot's entry on; the source serves the range. */
    CATCHING_UP,
    /** Cut over: the target owns the range (epoch + 1); the source deletes its copy, the backup is refilled. */
    CLEANING_UP
}
