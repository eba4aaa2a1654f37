package org.autodisk.node.rangelog;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.wire.LedgerHandover;

/**
 * The ledgers opened for this node by its own metadata changes, known to this process only: a migration's cutover
 * opens the new owner's, a split the owner asked for opens one per half. The range's slot may write such a ledger
 * without recovering it, since nothing wrote it yet. Claimed once; after a restart nothing is reserved (and the
 * process draws another {@link #opener}), so the slot recovers the ledger like any other it finds open. Beside them,
 * where the former owner said its ledger of a range ends (LEDGER_HANDOVER): the new owner's slot replays to that
 * entry without waiting for the close to commit.
 */
final class CutoverLedgers {

    /** Handovers kept at most (a slot takes its own within moments; the rest are dropped when closes commit). */
    private static final int MAX_HANDOVERS = 1024;

    /** This process's mark on the ledgers its splits open ({@link LedgerInfo#opener()}): never 0. */
    private final long opener = new SecureRandom().nextLong(1, Long.MAX_VALUE);
    /** Ledgers with this process's mark that a slot took: each is written by one slot, once. */
    private final Set<Long> claimedOpened = ConcurrentHashMap.newKeySet();
    private final Set<String> reserved = ConcurrentHashMap.newKeySet();
    /** Where this process's own retired writers ended their ledgers, drained, before the closes commit. */
    private final Map<Long, Long> endedHere = new ConcurrentHashMap<>();
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

    /** The mark this process's splits put on the ledgers they open for its slots. */
    long opener() {
        return opener;
    }

    /**
     * Takes the ledger opened for a range's slot by this process's own change: the one its cutover opened at the
     * range's epoch (if it reserved it), else the one its split opened for the range.
     *
     * @return the ledger, once; {@code null} if there is none
     */
    LedgerInfo preopened(MetaState state, RangeDescriptor range, String self) {
        if (!claim(range.id(), range.epoch())) {
            return state.ledgersOf(range).stream().filter(l -> openedFor(l, range, self))
                    .filter(l -> claimedOpened.add(l.id())).findFirst().orElse(null);
        }
        return state.ledgersOf(range).stream().filter(l -> l.state() == LedgerState.OPEN && l.opener() == 0
                && l.epoch() == range.epoch() && l.writer().equals(self) && sameSpan(l, range)
                && !endedHere.containsKey(l.id())).findFirst().orElse(null);
    }

    /**
     * Tells whether a split this process asked for opened a ledger for a range: open, of the range's id, span and
     * epoch, written by this node, with this process's mark.
     */
    boolean openedFor(LedgerInfo l, RangeDescriptor range, String self) {
        return l.opener() == opener && l.state() == LedgerState.OPEN && l.epoch() == range.epoch()
                && l.writer().equals(self) && l.rangeId() == range.id() && sameSpan(l, range);
    }

    private static boolean sameSpan(LedgerInfo l, RangeDescriptor range) {
        return Arrays.equals(l.low(), range.low()) && Arrays.equals(l.high(), range.high());
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

    /** Notes where this process's retired writer of a ledger ended it: drained, it takes no more entries. */
    void endedHere(long ledgerId, long lastEntry) {
        endedHere.put(ledgerId, lastEntry);
    }

    /** Where this process's retired writer of a ledger ended it, or {@code null}. */
    Long endHere(long ledgerId) {
        return endedHere.get(ledgerId);
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

    /** Forgets what it kept of ledgers closed (or gone) in the metadata. */
    void tidy(MetaState state) {
        if (claimedOpened.isEmpty() && endedHere.isEmpty() && handedOver.isEmpty()) {
            return;
        }
        Set<Long> unclosed = state.ledgers().stream().filter(l -> l.state() != LedgerState.CLOSED)
                .map(LedgerInfo::id).collect(Collectors.toSet());
        claimedOpened.retainAll(unclosed);
        endedHere.keySet().retainAll(unclosed);
        handedOver.keySet().retainAll(unclosed);
    }
}
