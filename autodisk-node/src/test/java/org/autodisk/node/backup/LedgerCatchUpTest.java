package org.autodisk.node.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.LedgerState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * What the log nodes may drop of a ledger: nothing while a range it overlaps is taken over by its promoted backup (the
 * store of that owner is not a holder yet; a takeover run again replaces the store's span).
 */
class LedgerCatchUpTest {

    private static final byte[] MIDDLE = {0x55};

    private static MetaState with(RangeState lowerState) {
        RangeDescriptor lower = new RangeDescriptor(0, new byte[0], MIDDLE, "d2", List.of(), List.of("l1"), 3, 1,
                lowerState);
        RangeDescriptor upper = new RangeDescriptor(1, MIDDLE, null, "d3", List.of("d1"), List.of("l1"), 3, 1,
                RangeState.SERVING);
        return new MetaState(9, "range", List.of(), List.of(lower, upper), 2, null, List.of(), 20, List.of(), 1);
    }

    private static LedgerInfo ledgerOf(long id, byte[] low, byte[] high) {
        return new LedgerInfo(id, 0, low, high, 2, "d1", List.of(new LedgerInfo.Fragment(1, List.of("l1"))),
                LedgerState.CLOSED, 100);
    }

    @Test
    void aLedgerOfARangeTakenOverByItsPromotedBackupIsKeptWhole() {
        LedgerInfo lowerLedger = ledgerOf(4, new byte[0], MIDDLE);
        LedgerInfo upperLedger = ledgerOf(5, MIDDLE, null);
        LedgerInfo parentLedger = ledgerOf(3, new byte[0], null);

        assertThat(LedgerCatchUp.keptWhole(with(RangeState.RECOVERING), lowerLedger)).isTrue();
        assertThat(LedgerCatchUp.keptWhole(with(RangeState.RECOVERING), parentLedger)).as("overlaps it").isTrue();
        assertThat(LedgerCatchUp.keptWhole(with(RangeState.RECOVERING), upperLedger)).as("another range's").isFalse();
        assertThat(LedgerCatchUp.keptWhole(with(RangeState.SERVING), lowerLedger)).as("served again").isFalse();
    }

    /**
     * The schedule of a fault run (seed 363429781288): a log node whose view of the metadata did not have the backup
     * fill yet asked the owner, whose store had moved past the fill's snapshot (28) to 30 durably, and dropped entry
     * 30, which the fill's target still needed and only that log node held.
     */
    @Test
    void anAnswerGivenUnderANewerViewOfTheMetadataDropsNothing() {
        LedgerCatchUp.Holders onlyTheOwner = new LedgerCatchUp.Holders();
        onlyTheOwner.add(new LedgerCopies.Held(40, 30, 12));
        assertThat(onlyTheOwner.dropBelow(11)).as("the view lacks the fill the owner knew of").isZero();

        LedgerCatchUp.Holders withTheTarget = new LedgerCatchUp.Holders();
        withTheTarget.add(new LedgerCopies.Held(40, 30, 12));
        withTheTarget.add(new LedgerCopies.Held(29, 29, 12));
        assertThat(withTheTarget.dropBelow(12)).as("a view with the fill counts its target").isEqualTo(30);
        assertThat(withTheTarget.dropBelow(15)).isEqualTo(30);
    }
}
