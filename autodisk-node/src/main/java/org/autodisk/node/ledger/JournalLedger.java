package org.autodisk.node.ledger;

import java.util.TreeMap;

/**
 * What a log node's journal knows of one ledger: where each durable entry is (segment and offset, packed), the
 * entries accepted but not yet durable, the last entry it ever held, the truncation point and the fence.
 * Guarded by the store's lock.
 */
final class JournalLedger {

    /** Entry id to {@code segment << 32 | offset} of its frame. */
    final TreeMap<Long, Long> positions = new TreeMap<>();
    /** Entries accepted and queued, not yet durable. */
    final TreeMap<Long, LedgerEntry> pending = new TreeMap<>();
    /** The last durable entry ever held (truncation does not lower it). */
    long last;
    /** Entries below this are dropped. */
    long truncatedBelow;
    boolean fenced;

    static long pack(long segment, long offset) {
        return segment << 32 | offset;
    }

    static long segment(long packed) {
        return packed >>> 32;
    }

    static long offset(long packed) {
        return packed & 0xFFFF_FFFFL;
    }

    /** The last entry accepted, durable or queued. */
    long accepted() {
        return pending.isEmpty() ? last : Math.max(last, pending.lastKey());
    }

    void held(long entryId, long packed) {
        if (entryId >= truncatedBelow) {
            positions.put(entryId, packed);
        }
        last = Math.max(last, entryId);
    }

    void truncate(long below) {
        if (below > truncatedBelow) {
            truncatedBelow = below;
            positions.headMap(below).clear();
        }
    }

    long[] state() {
        return new long[] {truncatedBelow, fenced ? 1 : 0, last};
    }
}
