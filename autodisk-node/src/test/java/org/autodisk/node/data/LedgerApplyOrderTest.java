package org.autodisk.node.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * A backup copy takes entries of a range's ledger only once it holds every earlier ledger of the range wholly: a copy
 * that lost the end of one in a crash, while a log node still believes it holds it, must not take the next one's
 * entries first (the end resent later would write older values over them).
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
}
