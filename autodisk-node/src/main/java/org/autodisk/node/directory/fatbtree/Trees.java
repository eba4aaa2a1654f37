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
        List<String> ids = nodes(nodes);
        List<BulkLoad.Leaf> leaves = new ArrayList<>();
        int total = nodes * leavesPerNode;
        long span = (1L << 32) / total;
        for (int i = 0; i < total; i++) {
            byte[] low = i == 0 ? new byte[0] : key(i * span);
            leaves.add(new BulkLoad.Leaf(i, low, ids.get(i / leavesPerNode)));
        }
        return new PageCluster(layout, ids, leaves, fanout);
    }
}
