package org.autodisk.node.balance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.autodisk.rules.ClusterLoad;
import org.autodisk.rules.NodeLoad;
import org.autodisk.rules.RangeLoad;
import org.junit.jupiter.api.Test;

class DiskRoomTest {

    @Test
    void proposalsOntoOneNodeTakeItsRoomTogether() {
        // d3: 18,000 of 100,000 bytes free, at most 90 % used: room for 8,000
        ClusterLoad load = ClusterLoad.of(List.of(new NodeLoad("d3", "up", 0, 0, 0, 0, 18_000, 100_000),
                new NodeLoad("d4", "up", 0, 0, 0, 0, -1, -1)), List.of(range(1, 5000), range(2, 5000),
                        range(3, 3000), range(4, -1)), 0);
        DiskRoom room = new DiskRoom(load, 90);
        assertThat(room.take("d3", 1, false)).isTrue();
        assertThat(room.take("d3", 2, false)).as("5000 + 5000 > 8000").isFalse();
        assertThat(room.refusal("d3", 2)).contains("d3's disk (82.0 % used) has room for 8000 bytes")
                .contains("5000 of them taken by this round's earlier moves; range 2 holds 5000");
        assertThat(room.take("d3", 3, false)).as("5000 + 3000 fits exactly").isTrue();
        assertThat(room.take("d3", 4, false)).as("a range of unknown size takes nothing").isTrue();
        assertThat(room.take("d3", 2, true)).as("half of 5000 does not fit either").isFalse();
        assertThat(room.take("d4", 1, false)).as("a disk not measured refuses nothing").isTrue();
        assertThat(room.take("d5", 1, false)).as("a node not in the round's facts").isTrue();
    }

    private static RangeLoad range(int id, long bytes) {
        return new RangeLoad(id, "[r" + id + ")", "d1", "serving", true, bytes / 10, bytes);
    }
}
