package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * Schedules of a node taking its index copies up from its peers ({@link PageRebuild}) while the cluster changes: a
 * holder slow to get a batch, the only leaf owner losing its copies, a first start with a peer down while the
 * metadata moves on, and metadata that replays behind the tree. Each ends with every copy where it belongs and
 * agreeing with its peers. Links can be held and nodes crashed through named hooks of an in-memory network.
 */
class RebuildScheduleTest {

    private static final List<String> NODES = TakeUpCluster.NODES;

    /**
     * d2 moves range 1 (its only leaf under the page over ranges 0, 1, held by d1, d2) to d3; d1 takes the batch, then
     * crashes and loses index/; d2's batch to d3 is slow. d3 answers without the page, but holds its copies: d1 must
     * wait for it rather than take the creation's copy.
     */
    @Test
    void aHolderSlowToGetABatchIsWaitedForNotReplacedByTheCreation() throws Exception {
        try (TakeUpCluster c = new TakeUpCluster(NODES)) {
            c.bootstrap();
            c.awaitSettled();
            RangeDescriptor r1 = c.state().ranges().get(1);
            c.holdWhen("d2", "d3", m -> m instanceof PageMessage.Batch);
            c.crashAfterTaking("d1", m -> m instanceof PageMessage.Batch);
            c.submit(new MetaCommand.ChangeRange(1, r1.epoch(), r1.generation(), "d3", List.of(),
                    RangeState.SERVING));
            await("d1's crash").atMost(Duration.ofSeconds(10)).until(() -> c.isDown("d1"));
            c.restart("d1", true, c.replaying("d1"));
            await("d1 asked d3 for the page").atMost(Duration.ofSeconds(20)).until(() -> c.fetchesOfPages("d1") > 0);
            c.release("d2", "d3");
            await("d1 took its copies up").atMost(Duration.ofSeconds(20)).until(() -> c.dirs.get("d1").ready());
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
        }
    }

    /**
     * Every range moves to d1 (the others hold no page, rightly). d1 loses index/ and restarts replaying the metadata
     * from the bootstrap: every peer answers holding no root (and is not taking its copies up), so d1 rebuilds the
     * whole tree from the metadata rather than load the creation's.
     */
    @Test
    void theOnlyLeafOwnerThatLostItsIndexDoesNotLoadTheCreation() throws Exception {
        try (TakeUpCluster c = new TakeUpCluster(NODES)) {
            c.bootstrap();
            c.awaitSettled();
            for (RangeDescriptor r : c.state().ranges()) {
                if (!r.owner().equals("d1")) {
                    c.submit(new MetaCommand.ChangeRange(r.id(), r.epoch(), r.generation(), "d1", List.of(),
                            RangeState.SERVING));
                    c.awaitSettled();
                }
            }
            assertThat(c.violations()).isEmpty();
            assertThat(c.dirs.get("d2").copies().pages()).isEmpty();
            c.crash("d1");
            c.restart("d1", true, c.replaying("d1"));
            await("d1 rebuilt").atMost(Duration.ofSeconds(20)).until(() -> c.dirs.get("d1").ready());
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
        }
    }

    /**
     * d4 is down at the cluster's first start; d1..d3 wait LOAD_AFTER_TRIES rounds, then load the creation (or find a
     * peer's root, whichever comes first: then they wait until d4, silent, is declared failed, as the failure detector
     * does), and the split of d1's range 0 committed while they waited is followed.
     */
    @Test
    void aSplitCommittedWhileWaitingForADownPeerAtFirstStartIsFollowed() throws Exception {
        try (TakeUpCluster c = new TakeUpCluster(List.of("d1", "d2", "d3"))) {
            c.bootstrap();
            await("d1 asked its peers, d4 not answering").atMost(Duration.ofSeconds(20))
                    .until(() -> c.fetchesOfRoots("d1") > 1);
            c.submit(new MetaCommand.Split(0, 1, new byte[] {10}));
            c.submit(new MetaCommand.SetMemberState("d4", MemberState.UP, MemberState.FAILED));
            await("loaded").atMost(Duration.ofSeconds(30)).until(() -> c.dirs.get("d1").ready());
            c.start("d4");
            c.submit(new MetaCommand.SetMemberState("d4", MemberState.FAILED, MemberState.UP));
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
        }
    }

    /**
     * d1 alone holds two level-1 pages (range 1 moved to it, range 0 split twice so that the page split at 0x0a). It
     * loses index/ and restarts while its metadata is still replaying (it applied the bootstrap, not yet the rest): it
     * waits for its metadata to reach its peers' before it rebuilds the pages only it held from it.
     */
    @Test
    void aPageOnlyTheNodeHeldIsNotRebuiltFromMetadataOlderThanTheTree() throws Exception {
        try (TakeUpCluster c = new TakeUpCluster(NODES)) {
            c.bootstrap();
            c.awaitSettled();
            RangeDescriptor r1 = c.state().ranges().get(1);
            c.submit(new MetaCommand.ChangeRange(1, r1.epoch(), r1.generation(), "d1", List.of(),
                    RangeState.SERVING));
            c.awaitSettled();
            c.submit(new MetaCommand.Split(0, 1, new byte[] {5}));
            c.awaitSettled();
            RangeDescriptor right = c.state().rangeOf(new byte[] {6});
            c.submit(new MetaCommand.Split(right.id(), right.generation(), new byte[] {10}));
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
            c.crash("d1");
            TakeUpCluster.Lagging lagging = c.lagging("d1");
            c.restart("d1", true, lagging);
            await("d1 asked its peers").atMost(Duration.ofSeconds(20)).until(() -> c.fetchesOfRoots("d1") > 0);
            lagging.catchUp();
            await("d1 took its copies up").atMost(Duration.ofSeconds(20)).until(() -> c.dirs.get("d1").ready());
            c.awaitSettled();
            assertThat(c.violations()).isEmpty();
        }
    }
}
