package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * A new copy into a span waits while another migration's copy into it is still running here or not dropped yet (an
 * aborted copy whose thread still paces its throttle): otherwise the old copy's late chunk, or the drop of it, would
 * land on the new copy and lose what it copied.
 */
class CopyOrderTest {

    private static final byte[] MIDDLE = {0x55};
    private static final RangeDescriptor LOWER = new RangeDescriptor(0, new byte[0], MIDDLE, "d1", List.of(),
            List.of("l1"), 3, 1, RangeState.SERVING);
    private static final RangeDescriptor UPPER = new RangeDescriptor(1, MIDDLE, null, "d1", List.of(),
            List.of("l1"), 3, 1, RangeState.SERVING);

    @Test
    void aCopyWaitsForAnotherCopyIntoTheSameSpanToEndAndBeDropped() {
        Map<Long, Migrations.Targeted> aborted = Map.of(4L, new Migrations.Targeted(null, LOWER));

        assertThat(Migrations.copyingStill(aborted, 5, LOWER)).as("an aborted copy of the range").isTrue();
        assertThat(Migrations.copyingStill(aborted, 4, LOWER)).as("its own").isFalse();
        assertThat(Migrations.copyingStill(aborted, 5, UPPER)).as("another span").isFalse();
        assertThat(Migrations.copyingStill(Map.of(), 5, LOWER)).isFalse();
        assertThat(Migrations.copyingStill(aborted, 5, null)).as("a range gone").isFalse();
    }
}
