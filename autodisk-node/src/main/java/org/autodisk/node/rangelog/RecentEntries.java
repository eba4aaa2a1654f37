package org.autodisk.node.rangelog;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.wire.LogRecord;

/**
 * The last entries a range's writer had acknowledged, kept while the range moves away (this node is a migration's
 * source), so that the handover at the cutover carries them and the target need not read them back from a log node.
 * Bounded; a gap (another ledger, an entry missing) starts it anew. Thread-safe.
 */
final class RecentEntries {

    /** At most this many entries are kept. */
    static final int MAX_ENTRIES = 512;
    /** At most about this many bytes are kept. */
    static final long MAX_BYTES = 512L << 10;
    private static final int OVERHEAD = 40;

    private final ArrayDeque<LedgerEntry> kept = new ArrayDeque<>();
    private long bytes;
    /** Read without the lock on the insert path: a range that does not move pays one volatile read per group. */
    private volatile boolean keeping;

    /**
     * Starts or stops keeping entries (stopping drops those kept).
     *
     * @param on whether the range moves away now
     */
    synchronized void keep(boolean on) {
        keeping = on;
        if (!on) {
            kept.clear();
            bytes = 0;
        }
    }

    /** Takes a group its writer acknowledged, in id order. */
    void acknowledged(List<LedgerEntry> group) {
        if (keeping) {
            keep(group);
        }
    }

    private synchronized void keep(List<LedgerEntry> group) {
        if (!keeping) {
            return;
        }
        for (LedgerEntry e : group) {
            LedgerEntry previous = kept.peekLast();
            if (previous != null && (previous.ledgerId() != e.ledgerId() || previous.entryId() + 1 != e.entryId())) {
                kept.clear();
                bytes = 0;
            }
            kept.addLast(e);
            bytes += size(e);
            while (kept.size() > MAX_ENTRIES || bytes > MAX_BYTES) {
                bytes -= size(kept.pollFirst());
            }
        }
    }

    /**
     * The kept entries of a ledger up to an entry, as records.
     *
     * @param ledgerId the ledger
     * @param last     its last entry
     * @return consecutive entries ending at {@code last}; none if those kept do not reach it
     */
    synchronized List<LogRecord> tail(long ledgerId, long last) {
        List<LogRecord> out = new ArrayList<>();
        for (LedgerEntry e : kept) {
            if (e.ledgerId() == ledgerId && e.entryId() <= last) {
                out.add(e.toRecord());
            }
        }
        return !out.isEmpty() && out.get(out.size() - 1).lsn() == last ? out : List.of();
    }

    private static long size(LedgerEntry e) {
        return e.key().length + (long) e.value().length + OVERHEAD;
    }
}
