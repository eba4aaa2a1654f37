package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.autodisk.core.Keys;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;
import org.autodisk.node.wire.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * A fresh copy whose snapshot is behind the store it writes starts again: a store's ledger positions only rise, so
 * the entries between the snapshot's position and the store's would never reach the span the snapshot writes (a
 * review found it: a backup copy that had backed the range up before holds the ledger up to what was acknowledged,
 * which can be ahead of what the owner had applied when it took the snapshot).
 */
class SnapshotBehindTest {

    @Test
    void aSnapshotBehindTheStoresPositionOfOneOfItsLedgersIsNotUsed() {
        LocalStore copy = LocalStores.inMemory();
        copy.applyLedger(7, List.of(new LogRecord(0, 1, 35, LogRecord.PUT, Keys.utf8("k"), Keys.utf8("v35"))));
        copy.deleteRange(new byte[0], null); // the fresh fill's start: the span goes, the position stays

        assertThat(CopyLoader.behind(copy, Map.of(7L, 28L, 5L, 90L)))
                .isEqualTo("the snapshot holds ledger 7 through entry 28, the store it is copied into through 35");
        assertThat(CopyLoader.behind(copy, Map.of(7L, 35L, 5L, 90L))).as("as far").isNull();
        assertThat(CopyLoader.behind(copy, Map.of(7L, 40L))).isNull();
        assertThat(CopyLoader.behind(copy, Map.of())).isNull();
    }
}
