package org.autodisk.node.rangelog;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.wire.LedgerHandover;

/**
 * The ledgers a migration's cutover opens for this node in its own metadata change, known to this process only: the
 * range's slot at the new epoch may write such a ledger without recovering it, since nothing wrote it yet. Claimed
 * once; after a restart nothing is reserved and the slot recovers the ledger like any other it finds open. Beside
 * them, where the former owner said its ledger of a range ends (LEDGER_HANDOVER): the new owner's slot replays to
 * that entry without waiting for the close to commit.
 */
final class CutoverLedgers {

    /** Handovers kept at most (a slot takes its own within moments; the rest are dropped when closes commit). */
    private static final int MAX_HANDOVERS = 1024;

    private final Set<String> reserved = ConcurrentHashMap.newKeySet();
    private final Map<Long, LedgerHandover> handedOver = new ConcurrentHashMap<>();
    private final LongAdder pausedMicros = new LongAdder();

    void reserve(int rangeId, long epoch) {
        reserved.add(key(rangeId, epoch));
    }

    void release(int rangeId, long epoch) {
        reserved.remove(key(rangeId, epoch));
    }

    /**
     * Takes the reservation of a range at an epoch.
     *
     * @return true once, if a cutover of this process reserved it
     */
    boolean claim(int rangeId, long epoch) {
        return reserved.remove(key(rangeId, epoch));
    }

    private static String key(int rangeId, long epoch) {
        return rangeId + "@" + epoch;
    }

    /**
     * Keeps where a ledger ends, as its writer said (a second word on the same ledger replaces the first).
     *
     * @return false if too many are kept already (the slot then waits for the close to commit)
     */
    boolean handOver(LedgerHandover h) {
        if (handedOver.size() >= MAX_HANDOVERS && !handedOver.containsKey(h.ledgerId())) {
            return false;
        }
        handedOver.put(h.ledgerId(), h);
        return true;
    }

    /** Where a ledger ends as its writer said, or {@code null}. */
    LedgerHandover handedOver(long ledgerId) {
        return handedOver.get(ledgerId);
    }

    /** Counts how long a range's writes waited from its former owner's stop until this node served it. */
    void paused(long micros) {
        pausedMicros.add(Math.max(0, micros));
    }

    /** Milliseconds ranges handed over to this node had their writes paused, summed. */
    double pausedMillis() {
        return pausedMicros.sum() / 1e3;
    }

    /** Forgets the handovers of ledgers closed (or gone) in the metadata. */
    void tidy(MetaState state) {
        handedOver.keySet().removeIf(id -> {
            LedgerInfo l = state.ledger(id);
            return l == null || l.state() == LedgerState.CLOSED;
        });
    }
}
