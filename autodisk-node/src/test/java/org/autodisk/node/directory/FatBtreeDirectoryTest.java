package org.autodisk.node.directory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.autodisk.node.directory.fatbtree.InMemoryFatBtrees;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.MetaState;
import org.junit.jupiter.api.Test;

/**
 * The Fat-Btree directory against the directory contract: four data nodes, each holding only the index pages above
 * its own ranges, their page messages in memory. A small fanout (8) makes the many-changes tree three levels deep,
 * so keys are forwarded through nodes that hold the next page; after every change the copies meet the copy invariant.
 */
class FatBtreeDirectoryTest extends DirectoryContract {

    private static final int FANOUT = 8;
    private InMemoryFatBtrees trees;

    @Override
    Nodes create(InMemoryMetadataGroup group, List<String> nodes) {
        trees = new InMemoryFatBtrees(group, nodes, FANOUT);
        return Nodes.of(trees::directory, trees::settled, trees::close);
    }

    @Test
    void eachNodeHoldsOnlyTheIndexAboveItsOwnRangesAndKeysTravelThroughPageHolders() {
        MetaState s = splitAndMove(7, true);
        assertThat(trees.levels()).isGreaterThanOrEqualTo(3);
        int pages = trees.indexPages();
        assertThat(trees.copies().values()).allSatisfy(held -> assertThat(held).isLessThan(pages));
        assertEveryKeyReachesItsOwner(s, new Random(5), 300);
        assertThat(mostHops()).as("a key forwarded through a node holding the next page").isGreaterThanOrEqualTo(2);
    }

    /**
     * Changes committed back to back: each owner carries out its own in log order while the others carry out theirs,
     * a new owner waits for the move that gave it a leaf, and the threads interleave differently on every run.
     */
    @Test
    void backToBackChangesSettleConsistentlyOverManySchedules() {
        for (long seed = 1; seed <= 12; seed++) {
            restart();
            splitAndMove(seed, false);
            MetaState s = settle();
            assertEveryKeyReachesItsOwner(s, new Random(seed), 100);
        }
    }

    @Override
    void checkCopies(MetaState s) {
        assertThat(trees.violations(s)).as("copies per node " + trees.copies()).isEmpty();
    }
}
