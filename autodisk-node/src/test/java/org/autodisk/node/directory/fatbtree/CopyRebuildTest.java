package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Faults between nodes: a node whose batches are held catches up in order when they arrive; a node that crashed and
 * lost the batches sent meanwhile rebuilds its copies from its peers on restart, and the invariant holds again.
 */
class CopyRebuildTest {

    private final Random rnd = new Random(5);

    @Test
    void aNodeThatMissedChangesWhileDownRebuildsItsCopiesFromItsPeers() {
        PageCluster c = Trees.cluster(Layout.FAT_BTREE, 8, 4, 4);
        c.channel().crash("d003");
        changesNotCarriedOutBy(c, "d003", 400);
        assertThat(CopyInvariant.check(c)).as("d003 missed the changes").isNotEmpty();
        int fetched = c.rebuild("d003", 100_000);
        assertThat(CopyInvariant.check(c)).isEmpty();
        assertThat(fetched).isPositive().isLessThanOrEqualTo(c.copies().get("d003").pages().size());
        changesNotCarriedOutBy(c, "none", 200);
        assertThat(CopyInvariant.check(c)).as("and it follows the changes after").isEmpty();
    }

    @Test
    void heldBatchesApplyInOrderWhenTheyArrive() {
        PageCluster c = Trees.cluster(Layout.FAT_BTREE, 8, 4, 4);
        c.channel().hold("d005");
        changesNotCarriedOutBy(c, "d005", 300);
        assertThat(CopyInvariant.check(c)).isNotEmpty();
        c.channel().release("d005");
        assertThat(CopyInvariant.check(c)).isEmpty();
    }

    private long change = 2;
    private long leaf = 1000;

    private void changesNotCarriedOutBy(PageCluster c, String node, int count) {
        for (int i = 0; i < count; i++) {
            byte[] key = Trees.key(rnd.nextLong(1L << 32));
            BulkLoad.Leaf at = c.leafOf(key);
            if (at.owner().equals(node)) {
                continue;
            }
            if (rnd.nextInt(3) > 0) {
                if (c.split(key, leaf, change) != null) {
                    leaf++;
                    change++;
                }
            } else {
                List<String> others = c.nodes().stream().filter(n -> !n.equals(node)).toList();
                String to = others.get(rnd.nextInt(others.size()));
                if (!to.equals(at.owner())) {
                    c.move(at.low(), to, change++);
                }
            }
        }
    }
}
