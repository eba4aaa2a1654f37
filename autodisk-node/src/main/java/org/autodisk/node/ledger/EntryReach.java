package org.autodisk.node.ledger;

import java.util.TreeMap;

/**
 * How far a writer's entries may have reached a log node, so that a writer that stops can tell a write that was never
 * written from one whose outcome is unknown. A log node takes no entry that would leave a gap, so an entry held by a
 * log node comes with every pending entry before it: the entries past the last entry of every append that is still
 * out, was answered, or failed after it may have left this node, reached no log node (not guarded by the caller's
 * lock: the writer's methods call it under theirs).
 */
final class EntryReach {

    /** The last entries of the appends not answered yet, with how many appends end there. */
    private final TreeMap<Long, Integer> out = new TreeMap<>();
    private long reached;

    /**
     * An append was handed to the peer channel.
     *
     * @param last its last entry
     */
    void sent(long last) {
        out.merge(last, 1, Integer::sum);
    }

    /**
     * An append's answer came.
     *
     * @param last     its last entry
     * @param notSent  true if it failed without leaving this node (a connection that was never made, or was closed
     *                 before the append was written to it), so no log node got it
     */
    void answered(long last, boolean notSent) {
        out.computeIfPresent(last, (k, n) -> n == 1 ? null : n - 1);
        if (!notSent) {
            reached = Math.max(reached, last);
        }
    }

    /** @return the highest entry that may be on some log node (0: none) */
    long highest() {
        return out.isEmpty() ? reached : Math.max(reached, out.lastKey());
    }

    /**
     * The failure of an entry still unacknowledged when its writer stopped.
     *
     * @param self  the writer's node, for the message
     * @param entry the entry
     * @param why   why the writer stopped
     * @return UNAVAILABLE (not written) past {@link #highest()}, else OUTCOME_UNKNOWN (recovery settles it)
     */
    LedgerException failure(String self, LedgerEntry entry, String why) {
        String what = self + ": " + entry + " of range " + entry.rangeId();
        return entry.entryId() > highest()
                ? new LedgerException(LedgerException.Kind.UNAVAILABLE, what + " reached no log node, so it is not "
                        + "written (" + why + ")")
                : new LedgerException(LedgerException.Kind.OUTCOME_UNKNOWN, what + " may or may not be in the log ("
                        + why + ")");
    }

    /**
     * Tells whether an append failed without leaving this node.
     *
     * @param err what it failed with
     * @return true only if it is known that no log node got it
     */
    static boolean notSent(Throwable err) {
        return err != null && LedgerPeersSupport.cause(err) instanceof LedgerException e && e.notSent();
    }
}
