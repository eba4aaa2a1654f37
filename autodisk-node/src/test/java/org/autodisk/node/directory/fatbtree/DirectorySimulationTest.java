package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The three layouts under the same operations: what each must cost by construction, and the Fat-Btree between. */
class DirectorySimulationTest {

    private static final DirectorySimulation.Config CONFIG = new DirectorySimulation.Config(16, 8, 8, 300, 60, 2000,
            11);

    @Test
    void theLayoutsCostWhatTheirConstructionSaysUnderTheSameOperations() {
        DirectorySimulation.Figures fat = DirectorySimulation.run(Layout.FAT_BTREE, CONFIG);
        DirectorySimulation.Figures rep = DirectorySimulation.run(Layout.REPLICATED, CONFIG);
        DirectorySimulation.Figures single = DirectorySimulation.run(Layout.SINGLE_INDEX, CONFIG);
        assertThat(fat.violations()).isEmpty();
        assertThat(rep.violations()).isEmpty();
        assertThat(single.violations()).isEmpty();
        assertThat(fat.leaves()).isEqualTo(rep.leaves()).isEqualTo(single.leaves()).isEqualTo(16 * 8 + 300);
        assertThat(fat.indexPages()).as("the same tree, copied differently").isEqualTo(rep.indexPages());
        assertThat(rep.messagesPerSplit()).as("every other node hears of every split").isEqualTo(15.0);
        assertThat(rep.messagesPerMove()).isEqualTo(15.0);
        assertThat(single.messagesPerSplit()).isLessThanOrEqualTo(1.0);
        assertThat(single.busiestShare()).as("every descent runs on the index node").isEqualTo(1.0);
        assertThat(rep.hopsAt(100)).as("the replicated index forwards once at most").isLessThanOrEqualTo(1);
        assertThat(fat.messagesPerSplit()).isLessThan(rep.messagesPerSplit() / 4);
        assertThat(fat.indexBytesMean()).isLessThan(rep.indexBytesMean() / 2);
        assertThat(fat.hopsAt(100)).isLessThanOrEqualTo(fat.levels());
    }

    @Test
    void concurrentChangesUnderLocksKeepTheInvariantAndPayForTheirLocksInMessages() {
        DirectorySimulation.Concurrency c = DirectorySimulation.concurrent(CONFIG, 12, 30);
        assertThat(c.violations()).isEmpty();
        assertThat(c.changes()).isGreaterThan(200);
        assertThat(c.lockMessages()).as("requests, grants and releases to the other holders of the marks")
                .isPositive();
        assertThat(c.batches()).isPositive();
    }

    @Test
    void aConfigurationWithoutNodesOrLeavesIsRefused() {
        assertThatThrownBy(() -> DirectorySimulation.run(Layout.FAT_BTREE, new DirectorySimulation.Config(0, 8, 8, 1,
                1, 1, 1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nodes");
    }
}
