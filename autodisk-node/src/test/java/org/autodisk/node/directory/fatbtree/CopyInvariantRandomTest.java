package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.autodisk.core.Keys;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Thousands of random leaf splits and moves (to a neighbour in key order, as the balancer moves ranges, and to any
 * node), checking after every hundred that each copy is where its layout says and equal to the others, and at the
 * end that every key reaches its owner from every node (without leaving it when the node owns it, but for the single
 * index layout, where every key goes through the index node). Some Fat-Btree clusters have nodes that joined later
 * and own no leaf at first: they hold no page until a leaf moves to them, and none again once their last leaf left.
 */
class CopyInvariantRandomTest {

    @ParameterizedTest(name = "{0}: {1} nodes (+{4} joined without a leaf), fanout {2}, seed {3}")
    @CsvSource({"FAT_BTREE, 8, 4, 1, 0", "FAT_BTREE, 16, 8, 2, 0", "FAT_BTREE, 5, 3, 3, 0", "FAT_BTREE, 32, 16, 4, 0",
        "FAT_BTREE, 4, 3, 7, 2", "FAT_BTREE, 6, 4, 8, 3", "REPLICATED, 8, 4, 5, 0", "SINGLE_INDEX, 8, 4, 6, 0"})
    void everyCopyStaysWhereItsLayoutSaysThroughSplitsAndMoves(Layout layout, int nodes, int fanout, long seed,
            int joined) {
        PageCluster c = Trees.cluster(layout, nodes, 1, fanout, joined);
        assertThat(CopyInvariant.check(c)).as("nodes that joined hold nothing").isEmpty();
        Random rnd = new Random(seed);
        long change = 2;
        long nextLeaf = 1000;
        for (int op = 1; op <= 3000; op++) {
            if (rnd.nextInt(3) == 0) {
                move(c, rnd, change++);
            } else if (c.split(Trees.key(rnd.nextLong(1L << 32)), nextLeaf, change) != null) {
                nextLeaf++;
                change++;
            }
            if (op % 100 == 0) {
                assertThat(CopyInvariant.check(c)).as("after operation " + op + " of seed " + seed).isEmpty();
            }
        }
        everyKeyReachesItsOwner(c, rnd);
    }

    private static void move(PageCluster c, Random rnd, long change) {
        List<BulkLoad.Leaf> leaves = c.leaves();
        int i = rnd.nextInt(leaves.size());
        BulkLoad.Leaf leaf = leaves.get(i);
        String to;
        if (rnd.nextBoolean() && i + 1 < leaves.size()) {
            to = leaves.get(i + 1).owner();
        } else {
            to = c.nodes().get(rnd.nextInt(c.nodes().size()));
        }
        if (!to.equals(leaf.owner())) {
            c.move(leaf.low(), to, change);
        }
    }

    private static void everyKeyReachesItsOwner(PageCluster c, Random rnd) {
        for (int i = 0; i < 2000; i++) {
            byte[] key = Trees.key(rnd.nextLong(1L << 32));
            String from = c.nodes().get(rnd.nextInt(c.nodes().size()));
            String owner = c.leafOf(key).owner();
            PageCluster.Trace t = c.route(from, key);
            assertThat(t.servedBy()).as(Keys.render(key) + " from " + from).isEqualTo(owner);
            if (owner.equals(from) && c.layout() != Layout.SINGLE_INDEX) {
                assertThat(t.hops()).as("a key owned by the entry node never leaves it").isZero();
            }
        }
    }
}
