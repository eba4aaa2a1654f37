package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.autodisk.core.Keys;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Traverse's walk: the leaves of any interval, in key order, each once, resolved node by node across the cluster. */
class CoverTest {

    @ParameterizedTest
    @EnumSource(Layout.class)
    void everyIntervalWalksItsLeavesInOrderOnceFromAnyNode(Layout layout) {
        PageCluster c = Trees.cluster(layout, 8, 2, 4);
        Random rnd = new Random(4);
        Trees.splitsAndMoves(c, rnd, 300, 3);
        for (int i = 0; i < 500; i++) {
            long a = rnd.nextLong(1L << 32);
            long b = a + rnd.nextLong((1L << 32) - a + 1);
            byte[] from = i % 10 == 0 ? new byte[0] : Trees.key(a);
            byte[] to = i % 7 == 0 || b >= 1L << 32 ? null : Trees.key(b);
            String entry = c.nodes().get(rnd.nextInt(8));
            List<NodeCopies.Cover.Leaf> walked = c.cover(entry, from, to).leaves();
            assertThat(walked).as(Keys.render(from) + " from " + entry).extracting(NodeCopies.Cover.Leaf::id)
                    .containsExactlyElementsOf(expected(c, from, to));
            walked.forEach(l -> assertThat(l.owner()).isEqualTo(c.leafOf(l.low()).owner()));
        }
    }

    private static List<Long> expected(PageCluster c, byte[] from, byte[] to) {
        if (to != null && Keys.compare(from, to) >= 0) {
            return List.of();
        }
        List<BulkLoad.Leaf> all = c.leaves();
        long first = c.leafOf(from).id();
        int start = 0;
        while (all.get(start).id() != first) {
            start++;
        }
        return all.subList(start, all.size()).stream()
                .filter(l -> to == null || Keys.compare(l.low(), to) < 0).map(BulkLoad.Leaf::id).toList();
    }
}
