package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * Which copies of a migration that ended stay on its target: a backup fill's stays when the target backs the range
 * up or was promoted from that backup (the schedule of a fault run: the fill from a failed but live owner finished,
 * the failover promoted the new backup at once, and the fill's copy was dropped as aborted while the takeover read
 * it — the range came up empty); a move's stays only when the target owns the range.
 */
class AbortedCopyTest {

    private static RangeDescriptor range(String owner, List<String> backups) {
        return new RangeDescriptor(11, new byte[] {(byte) 0xe7}, null, owner, backups, List.of("l1"), 7, 1,
                RangeState.SERVING);
    }

    @Test
    void aFilledBackupPromotedToOwnerKeepsItsCopy() {
        RangeDescriptor span = range("d1", List.of());
        assertThat(Migrations.keptHere(List.of(range("d2", List.of())), true, span, "d2")).isTrue();
        assertThat(Migrations.keptHere(List.of(range("d1", List.of("d2"))), true, span, "d2")).isTrue();
    }

    @Test
    void anAbortedFillOrMoveIsDropped() {
        RangeDescriptor span = range("d1", List.of());
        assertThat(Migrations.keptHere(List.of(range("d1", List.of("d3"))), true, span, "d2")).isFalse();
        assertThat(Migrations.keptHere(List.of(range("d1", List.of("d2"))), false, span, "d2"))
                .as("a move's copy went to the main store, which a backup does not use").isFalse();
        assertThat(Migrations.keptHere(List.of(range("d2", List.of())), false, span, "d2")).isTrue();
    }
}
