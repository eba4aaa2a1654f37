package org.autodisk.node.meta;

/**
 * One entry of the metadata log: a command, who proposed it and when (wall clock, for the replication-lag figure;
 * never part of a decision).
 *
 * @param command           the change
 * @param proposer          the node that proposed it
 * @param proposedAtMicros  the proposer's wall clock in microseconds since the epoch
 */
public record MetaEntry(MetaCommand command, String proposer, long proposedAtMicros) {

    /**
     * Returns the wall clock in microseconds since the epoch.
     *
     * @return now
     */
    public static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
