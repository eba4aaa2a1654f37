package org.autodisk.node.ledger;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.wire.LogRecord;

/**
 * The range's backup copy, caught up from the log nodes (the seed's Rule_5): ledger by ledger in id order, each only
 * up to what is settled (a closed ledger's last entry, or the last entry its writer reported acknowledged), never
 * past an entry no log node of its fragment holds, and never into a later ledger before the earlier one is closed and
 * applied; it never marks itself applied past an entry it did not receive. A crash loses what it had not flushed.
 */
final class SimBackup {

    private final SimWorld world;
    Map<String, String> data = new HashMap<>();
    private Map<Long, Long> applied = new HashMap<>();
    private Map<String, String> flushed = new HashMap<>();
    private Map<Long, Long> flushedApplied = new HashMap<>();

    SimBackup(SimWorld world) {
        this.world = world;
    }

    void crash() {
        data = new HashMap<>(flushed);
        applied = new HashMap<>(flushedApplied);
    }

    void flush() {
        flushed = new HashMap<>(data);
        flushedApplied = new HashMap<>(applied);
    }

    /** The last entry of a ledger applied to the copy. */
    long applied(long ledgerId) {
        return applied.getOrDefault(ledgerId, 0L);
    }

    void catchUp() {
        for (LedgerInfo l : world.state().ledgersOf(world.state().range(0))) {
            long bound = l.state() == LedgerState.CLOSED ? l.lastEntry() : confirmed(l);
            long next = applied.getOrDefault(l.id(), 0L) + 1;
            while (next <= bound) {
                LedgerEntry e = find(l, next);
                if (e == null) {
                    return;
                }
                if (e.entryId() != next) {
                    world.violations.add("the backup was handed " + e + " for entry " + next + " of ledger " + l.id()
                            + ": it would mark itself applied past an entry it never received");
                    return;
                }
                apply(e);
                next++;
            }
            if (l.state() != LedgerState.CLOSED) {
                return;
            }
        }
    }

    private long confirmed(LedgerInfo l) {
        long c = 0;
        for (String node : l.lastFragment().ensemble()) {
            SimWorld.SimLogNode n = world.logNodes.get(node);
            if (n.up) {
                c = Math.max(c, n.ledgers.confirmed(l.id()));
            }
        }
        return c;
    }

    private LedgerEntry find(LedgerInfo l, long entry) {
        for (String node : l.fragmentOf(entry).ensemble()) {
            SimWorld.SimLogNode n = world.logNodes.get(node);
            if (n.up) {
                List<LedgerEntry> got = n.ledgers.read(l.id(), entry, 1);
                if (!got.isEmpty()) {
                    return got.get(0);
                }
            }
        }
        return null;
    }

    private void apply(LedgerEntry e) {
        if (e.op() == LogRecord.PUT) {
            data.put(new String(e.key()), new String(e.value()));
        } else {
            data.remove(new String(e.key()));
        }
        applied.put(e.ledgerId(), e.entryId());
    }
}
