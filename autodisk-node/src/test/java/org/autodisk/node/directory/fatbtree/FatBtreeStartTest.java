package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaBootstrap;
import org.junit.jupiter.api.Test;

/**
 * Which way a data node's Fat-Btree starts when its page store holds no copy and its metadata shows the cluster as
 * created (a first start, or a restart replaying the metadata from the bootstrap on): a node that never took up its
 * part of the tree loads the creation's; one that did (its store says so) holds nothing - it owned no leaf, or its
 * last leaf moved away - and must not take the creation's copies back.
 */
class FatBtreeStartTest {

    private static final List<String> NODES = List.of("d1", "d2", "d3", "d4");
    /** Carries no message; every peer answers a fetch holding no copy (none took up the tree). */
    private static final PageNetwork NOWHERE = new PageNetwork() {
        @Override
        public void send(String from, String to, PageMessage m) {
        }

        @Override
        public CompletableFuture<PageFetch.Answer> fetch(String from, String to, long page) {
            return CompletableFuture.completedFuture(new PageFetch.Answer(null, 0));
        }
    };

    @Test
    void aNodeWhoseStoreSaysItTookPartHoldsNothingAndAFirstStartLoadsTheCreation() {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP)).toList();
        group.member("d1").submit(MetaBootstrap.command("fat-btree", members, NODES, List.of(), id -> List.of()),
                Duration.ofSeconds(5)).join();
        InMemoryPageStore tookPart = new InMemoryPageStore();
        tookPart.reserve(ChangeNumbers.BLOCK + 1);
        FatBtreeDirectory drained = new FatBtreeDirectory("d2", 4, NOWHERE, tookPart);
        FatBtreeDirectory first = new FatBtreeDirectory("d3", 4, NOWHERE, new InMemoryPageStore());
        try {
            drained.follow(group.member("d2"));
            first.follow(group.member("d3"));
            await().atMost(Duration.ofSeconds(10)).until(() -> drained.ready() && first.ready());
            assertThat(drained.copies().pages()).as("its store says it took part: it holds nothing").isEmpty();
            assertThat(first.copies().pages()).as("the creation's tree, loaded").isNotEmpty();
            assertThat(first.copies().rootId()).isNotNegative();
        } finally {
            drained.close();
            first.close();
        }
    }

    @Test
    void aNodeRunsTheFanoutTheClusterWasCreatedWithWhateverItsConfigurationSays() {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP)).toList();
        List<byte[]> points = java.util.stream.IntStream.rangeClosed(1, 11).mapToObj(i -> new byte[] {(byte) (i * 20)})
                .toList();
        group.member("d1").submit(MetaBootstrap.command("fat-btree", 3, members, NODES, points, id -> List.of()),
                Duration.ofSeconds(5)).join();
        FatBtreeDirectory d2 = new FatBtreeDirectory("d2", 64, NOWHERE, new InMemoryPageStore());
        try {
            d2.follow(group.member("d2"));
            await().atMost(Duration.ofSeconds(10)).until(d2::ready);
            assertThat(d2.fanout()).isEqualTo(3);
            Page root = d2.copies().page(d2.copies().rootId());
            assertThat(root.level()).as("twelve leaves under pages of at most three entries").isGreaterThan(1);
        } finally {
            d2.close();
        }
    }
}
