package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.autodisk.node.directory.fatbtree.Trees.key;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The page layout and every structure change, on small trees whose shape is worked out by hand. */
class StructureChangesTest {

    /** 8 nodes, one leaf each, fanout 4: level-1 pages of leaves 0-1, 2-4 and 5-7 under a root. */
    private final PageCluster eight = Trees.cluster(Layout.FAT_BTREE, 8, 1, 4);

    @Test
    void aNodeHoldsTheRootAndThePagesAboveItsOwnLeavesOnly() {
        assertThat(CopyInvariant.check(eight)).isEmpty();
        NodeCopies d1 = eight.copies().get("d001");
        assertThat(d1.pages().values()).extracting(Page::level).containsExactlyInAnyOrder(2, 1);
        Page root = d1.page(d1.rootId());
        assertThat(root.entries()).extracting(Entry::copySet).containsExactly(List.of("d001", "d002"),
                List.of("d003", "d004", "d005"), List.of("d006", "d007", "d008"));
        eight.copies().values().forEach(c -> assertThat(c.rootId()).isEqualTo(d1.rootId()));
        assertThat(eight.copies().get("d005").pathTo(key(4L << 29)).get(0).entries()).extracting(Entry::child)
                .containsExactly(2L, 3L, 4L);
    }

    @Test
    void aLeafSplitWritesEveryCopyOfThePageAboveAndNothingElse() {
        ChangeCost cost = eight.split(key(10), 100, 2);
        assertThat(cost.messages()).as("the page above leaf 0 is on d001 and d002").isEqualTo(1);
        assertThat(cost.levels()).isEqualTo(1);
        assertThat(CopyInvariant.check(eight)).isEmpty();
        assertThat(eight.copies().get("d002").page(eight.copies().get("d001").pathTo(key(10)).get(0).id()).entries())
                .extracting(Entry::child).containsExactly(0L, 100L, 1L);
    }

    @Test
    void aFullPageSplitsOnEveryCopyAndEachNodeKeepsTheHalvesItHasLeavesUnder() {
        eight.split(key(10), 100, 2);
        eight.split(key(20), 101, 3);
        ChangeCost cost = eight.split(key(30), 102, 4);
        assertThat(cost.levels()).as("the level-1 page split, the root took its new half").isEqualTo(2);
        assertThat(CopyInvariant.check(eight)).isEmpty();
        Page left = eight.copies().get("d001").pathTo(key(10)).get(0);
        assertThat(left.entries()).extracting(Entry::child).containsExactly(0L, 100L);
        assertThat(eight.copies().get("d002").page(left.id())).as("d002 has no leaf left of the split").isNull();
        assertThat(eight.copies().get("d002").pathTo(key(1L << 29)).get(0).entries()).extracting(Entry::child)
                .containsExactly(101L, 102L, 1L);
        assertThat(cost.messages()).as("d002 takes the right half and drops the left; every node the root")
                .isEqualTo(7);
    }

    @Test
    void aRootSplitGrowsTheTreeByOneLevelOnEveryNode() {
        long change = 2;
        for (int i = 1; i <= 5; i++) {
            eight.split(key(i * 10), 100 + i, change++);
        }
        NodeCopies d8 = eight.copies().get("d008");
        assertThat(d8.page(d8.rootId()).level()).isEqualTo(3);
        assertThat(CopyInvariant.check(eight)).isEmpty();
        eight.copies().values().forEach(c -> assertThat(c.rootId()).isEqualTo(d8.rootId()));
    }

    @Test
    void aLeafMoveGivesTheTargetItsRootPathAndFreesTheSourcesCopies() {
        byte[] low7 = key(7L * (1L << 32) / 8);
        ChangeCost cost = eight.move(low7, "d002", 2);
        assertThat(CopyInvariant.check(eight)).isEmpty();
        NodeCopies d8 = eight.copies().get("d008");
        assertThat(d8.pages()).as("d008 owns no leaf any more: not even the root").isEmpty();
        assertThat(d8.rootId()).isEqualTo(-1);
        assertThat(eight.copies().get("d002").pathTo(low7)).hasSize(2);
        assertThat(cost.messages()).as("the root changed: every node but d008 hears").isEqualTo(7);
        assertThat(eight.route("d005", low7).servedBy()).isEqualTo("d002");
        assertThat(eight.route("d008", low7)).as("a node without copies sends a key to its owner")
                .isEqualTo(new PageCluster.Trace("d002", 1));
    }

    @Test
    void aNodeThatJoinedGainsTheRootPathWithItsFirstLeafAndLosesItWithItsLast() {
        PageCluster five = Trees.cluster(Layout.FAT_BTREE, 4, 2, 4, 1);
        NodeCopies d5 = five.copies().get("d005");
        assertThat(d5.pages()).isEmpty();
        assertThat(CopyInvariant.check(five)).isEmpty();
        byte[] low = key(5L << 29);
        assertThat(five.route("d005", low).servedBy()).isEqualTo("d003");
        ChangeCost cost = five.move(low, "d005", 2);
        assertThat(CopyInvariant.check(five)).isEmpty();
        assertThat(d5.pathTo(low)).as("the root and the page above the leaf").hasSize(2);
        assertThat(d5.rootId()).isEqualTo(five.copies().get("d001").rootId());
        assertThat(cost.levels()).as("every page up the path names d005 now").isEqualTo(2);
        assertThat(five.route("d001", low).servedBy()).isEqualTo("d005");
        assertThat(five.route("d005", low).hops()).isZero();
        assertThat(five.split(key((5L << 29) + 7), 100, 3)).as("d005 splits its leaf").isNotNull();
        assertThat(CopyInvariant.check(five)).isEmpty();
        five.move(low, "d003", 4);
        five.move(key((5L << 29) + 7), "d004", 5);
        assertThat(CopyInvariant.check(five)).isEmpty();
        assertThat(d5.pages()).as("its last leaf left").isEmpty();
    }

    @Test
    void aMoveToTheNeighbourUnderTheSamePageTouchesOnlyThatPagesCopies() {
        PageCluster four = Trees.cluster(Layout.FAT_BTREE, 4, 2, 4);
        ChangeCost cost = four.move(key(3L << 29), "d003", 2);
        assertThat(cost.messages()).as("d002 and d003 hold the page above leaves 2-4").isEqualTo(1);
        assertThat(cost.levels()).as("both still own leaves beneath it: the root is unchanged").isEqualTo(1);
        assertThat(CopyInvariant.check(four)).isEmpty();
    }

    @Test
    void everyKeyReachesItsOwnerFromEveryNodeAndAnOwnedKeyNeverLeaves() {
        for (int i = 0; i < 40; i++) {
            eight.split(key(i * 97_000_001L + 5), 100 + i, 2 + i);
        }
        for (String from : eight.nodes()) {
            for (long k = 0; k < 1L << 32; k += 1L << 26) {
                PageCluster.Trace t = eight.route(from, key(k));
                String owner = eight.leafOf(key(k)).owner();
                assertThat(t.servedBy()).isEqualTo(owner);
                assertThat(t.hops()).isEqualTo(owner.equals(from) ? 0 : t.hops()).isLessThanOrEqualTo(3);
            }
        }
    }

    @Test
    void aSplitAtALeafsOwnLowKeyOrTooSmallAFanoutIsRefused() {
        assertThat(eight.split(key(1L << 29), 100, 2)).isNull();
        assertThatThrownBy(() -> Trees.cluster(Layout.FAT_BTREE, 4, 1, 2)).isInstanceOf(
                IllegalArgumentException.class).hasMessageContaining("directory.fanout");
    }
}
