package org.autodisk.node.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.MigrationPhase;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * A backup copy takes entries of a range's ledger only once it holds every earlier ledger of the range wholly: a copy
 * that lost the end of one in a crash, while a log node still believes it holds it, must not take the next one's
 * entries first (the end resent later would write older values over them). It takes none of a ledger no range it backs
 * up overlaps, nor of one a backup fill into it covers.
 */
class LedgerApplyOrderTest {

    private static final RangeDescriptor RANGE = new RangeDescriptor(0, new byte[0], null, "d1", List.of("d2"),
            List.of("l1"), 3, 1, RangeState.SERVING);

    private static LedgerInfo ledger(long id, LedgerState state, long last) {
        return new LedgerInfo(id, 0, new byte[0], null, 2, "d1", List.of(new LedgerInfo.Fragment(1,
                List.of("l1"))), state, last);
    }

    private static MetaState with(LedgerInfo... ledgers) {
        return new MetaState(9, "range", List.of(), List.of(RANGE), 1, null, List.of(ledgers), 20, List.of(), 1);
    }

    @Test
    void entriesOfALaterLedgerWaitUntilTheCopyHoldsTheEarlierOnesWholly() {
        LedgerInfo first = ledger(4, LedgerState.CLOSED, 100);
        LedgerInfo second = ledger(6, LedgerState.OPEN, 0);
        MetaState s = with(first, second);

        assertThat(LedgerApplyHandler.earlierNotHeld(s, "d2", second, Map.of(4L, 60L)::get)).as("lost its end")
                .isEqualTo(first);
        assertThat(LedgerApplyHandler.earlierNotHeld(s, "d2", second, Map.of(4L, 100L)::get)).isNull();
        assertThat(LedgerApplyHandler.earlierNotHeld(s, "d2", first, Map.of(4L, 60L)::get)).as("the first")
                .isNull();
        assertThat(LedgerApplyHandler.earlierNotHeld(s, "d3", second, Map.of(4L, 60L)::get))
                .as("not its backup").isNull();
        LedgerInfo stillOpen = ledger(4, LedgerState.OPEN, 0);
        assertThat(LedgerApplyHandler.earlierNotHeld(with(stillOpen, second), "d2", second, Map.of(4L, 60L)::get))
                .as("not closed yet in this node's view").isEqualTo(stillOpen);
    }

    /**
     * The schedule a review found: d2 was dropped as the range's backup and is being filled as its backup again; a log
     * node whose view still names d2 the backup sends entry 101, acknowledged after the owner's snapshot (100). Applied
     * beside the fill, it would be overwritten by the snapshot's older value while the copy counts it applied, so the
     * copy would never get it; the fill catches up from the snapshot's position on by itself.
     */
    @Test
    void noEntryIsAppliedBesideABackupFillNorOfALedgerNoRangeBackedUpHereOverlaps() {
        LedgerInfo open = ledger(6, LedgerState.OPEN, 0);
        assertThat(LedgerApplyHandler.takes(with(open), "d2", open)).as("the backup").isTrue();
        assertThat(LedgerApplyHandler.takes(with(open), "d3", open)).as("not a backup").isFalse();

        RangeDescriptor dropped = new RangeDescriptor(0, new byte[0], null, "d1", List.of(), List.of("l1"), 3, 1,
                RangeState.SERVING);
        MigrationInfo fill = new MigrationInfo(7, 0, "d1", "d2", 3, MigrationPhase.COPYING, false,
                MigrationInfo.DEFAULT_RATE, 0, 0, null, "rules", true, 1, null);
        MetaState filling = new MetaState(12, "range", List.of(), List.of(dropped), 1, null, List.of(open), 20,
                List.of(fill), 8);
        assertThat(LedgerApplyHandler.takes(filling, "d2", open)).as("being filled").isFalse();

        RangeDescriptor lower = new RangeDescriptor(0, new byte[0], new byte[] {0x40}, "d1", List.of(),
                List.of("l1"), 3, 1, RangeState.SERVING);
        RangeDescriptor upper = new RangeDescriptor(1, new byte[] {0x40}, null, "d1", List.of("d2"), List.of("l1"),
                3, 1, RangeState.SERVING);
        MetaState beside = new MetaState(13, "range", List.of(), List.of(lower, upper), 2, null, List.of(open), 20,
                List.of(fill), 8);
        assertThat(LedgerApplyHandler.takes(beside, "d2", open))
                .as("a fill of one half while backing up the other (the fill's start refuses it)").isFalse();
    }
}
