package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How one node's copies take batches: the root follows the newest batch that wrote it, never one sent again. */
class NodeCopiesTest {

    private static Page root(long id, int level, long version) {
        return new Page(id, level, new byte[0], null, List.of(new Entry(new byte[0], 7, List.of("d1"))), version);
    }

    @Test
    void aBatchSentAgainAfterARootSplitDoesNotTakeTheRootBack() {
        NodeCopies c = new NodeCopies("d1", null);
        PageBatch first = new PageBatch(2, List.of(root(1, 1, 2)), List.of(), 1);
        c.apply(first);
        c.apply(new PageBatch(3, List.of(root(1, 1, 3), root(9, 2, 3)), List.of(), 9));
        assertThat(c.rootId()).isEqualTo(9);
        c.apply(first);
        assertThat(c.rootId()).as("the old batch again").isEqualTo(9);
    }

    @Test
    void aNodeWithoutARootTakesTheOneABatchGivesItAndLosesItWithTheDrop() {
        NodeCopies c = new NodeCopies("d3", null);
        assertThat(c.rootId()).isEqualTo(-1);
        c.apply(new PageBatch(2, List.of(root(1, 1, 2)), List.of(), 1));
        assertThat(c.rootId()).isEqualTo(1);
        c.apply(new PageBatch(3, List.of(), List.of(new PageBatch.Dropped(1, 3)), -1));
        assertThat(c.rootId()).isEqualTo(-1);
        assertThat(c.pages()).isEmpty();
    }
}
