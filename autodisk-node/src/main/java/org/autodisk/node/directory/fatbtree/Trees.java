package org.autodisk.node.directory.fatbtree;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds clusters of copies for the tests and the simulation: node {@code dN} owns the N-th run of evenly split
 * 4-byte key spans.
 */
final class Trees {

    private Trees() {
    }

    static byte[] key(long value) {
        return ByteBuffer.allocate(4).putInt((int) value).array();
    }

    static List<String> nodes(int count) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            out.add(String.format("d%03d", i));
        }
        return out;
    }

    static PageCluster cluster(Layout layout, int nodes, int leavesPerNode, int fanout) {
        return cluster(layout, nodes, leavesPerNode, fanout, 0);
    }

    /** A cluster with {@code joined} more nodes after the others that own no leaf (they joined later). */
    static PageCluster cluster(Layout layout, int nodes, int leavesPerNode, int fanout, int joined) {
        List<String> ids = nodes(nodes + joined);
        List<BulkLoad.Leaf> leaves = new ArrayList<>();
        int total = nodes * leavesPerNode;
        long span = (1L << 32) / total;
        for (int i = 0; i < total; i++) {
            byte[] low = i == 0 ? new byte[0] : key(i * span);
            leaves.add(new BulkLoad.Leaf(i, low, ids.get(i / leavesPerNode)));
        }
        return new PageCluster(layout, ids, leaves, fanout);
    }

    /**
     * Plays random changes: every {@code moveEvery}-th a move of a random leaf to a random other node, the others
     * splits at random keys.
     *
     * @param c         the cluster
     * @param rnd       the randomness
     * @param count     changes to try
     * @param moveEvery how often a move is tried
     */
    static void splitsAndMoves(PageCluster c, java.util.Random rnd, int count, int moveEvery) {
        for (int i = 0; i < count; i++) {
            BulkLoad.Leaf leaf = c.leafOf(key(rnd.nextLong(1L << 32)));
            String to = c.nodes().get(rnd.nextInt(c.nodes().size()));
            if (i % moveEvery == moveEvery - 1 && !to.equals(leaf.owner())) {
                c.move(leaf.low(), to, 2 + i);
            } else {
                c.split(key(rnd.nextLong(1L << 32)), 1000 + i, 2 + i);
            }
        }
    }
}
