package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;

/**
 * How a data node takes up the index copies it lost from its peers ({@link PageRebuild}), over a network that answers
 * fetches from a tree of four nodes: the copies it ends with agree with its peers' and the metadata, a page only it
 * held is rebuilt from the metadata, the newest copy wins, numbering resumes past what its peers name, and a page
 * no holder has yet is the creation's.
 */
class PageRebuildTest {

    private static final List<String> NODES = List.of("d1", "d2", "d3", "d4");

    @Test
    void itTakesUpEveryCopyItsPeersNameAndRebuildsTheOneOnlyItHeld() {
        MetaState s = state();
        Map<String, NodeCopies> tree = tree(s);
        PageRebuild.Result r = rebuild(s, answering(tree, a -> a), null);
        assertThat(r.copies().pages().keySet()).isEqualTo(tree.get("d1").pages().keySet());
        assertThat(r.rebuilt()).as("the page over ranges 0 and 1, both d1's, held by d1 alone").isEqualTo(1);
        assertThat(r.fetched()).isEqualTo(tree.get("d1").pages().size() - 1);
        tree.put("d1", r.copies());
        assertThat(CopyInvariant.check(tree, s)).isEmpty();
    }

    @Test
    void theNewestRootWinsAndNumberingResumesPastEveryChangeAPeerNames() {
        MetaState s = state();
        Map<String, NodeCopies> tree = tree(s);
        NodeCopies d3 = tree.get("d3");
        Page root = d3.page(d3.rootId());
        d3.apply(new PageBatch(7, List.of(root.rewritten(root.id(), root.low(), root.high(), root.entries(), 7)),
                List.of(), root.id()));
        long named = 5_000L << 8; // a change of d1's (position 0) its peers' copies name
        PageRebuild.Result r = rebuild(s, answering(tree, a -> new PageFetch.Answer(a.page(), Math.max(named,
                a.highest()), false, 0)), null);
        assertThat(r.copies().page(r.copies().rootId()).version()).isEqualTo(7);
        assertThat(r.reserved()).isGreaterThanOrEqualTo(5_000 + PageRebuild.SKIP);
    }

    @Test
    void aPageNoHolderHoldsYetIsTheCreationsOnceEveryHolderAnswered() {
        MetaState s = state();
        Map<String, NodeCopies> tree = tree(s);
        PageNetwork onlyRoots = new PageNetwork() {
            @Override
            public void send(String from, String to, PageMessage m) {
            }

            @Override
            public CompletableFuture<PageFetch.Answer> fetch(String from, String to, long page) {
                return CompletableFuture.completedFuture(page == PageFetch.ROOT
                        ? PageFetch.answer(tree.get(to), page, 0, false, s.version())
                        : new PageFetch.Answer(null, 0, true, s.version()));
            }
        };
        PageRebuild.Result r = rebuild(s, onlyRoots, new PageRebuild.Creation(() -> s, 3, () -> {
            throw new AssertionError("peers hold roots: the creation is not loaded whole");
        }));
        assertThat(r.copies().pages().keySet()).isEqualTo(tree.get("d1").pages().keySet());
        tree.put("d1", r.copies());
        assertThat(CopyInvariant.check(tree, s)).isEmpty();
    }

    /** Twelve ranges, owners round robin, but range 1 moved to d1: d1 alone owns the first level-1 page's leaves. */
    private static MetaState state() {
        InMemoryMetadataGroup group = new InMemoryMetadataGroup();
        List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP)).toList();
        List<byte[]> points = IntStream.rangeClosed(1, 11).mapToObj(i -> new byte[] {(byte) (i * 20)}).toList();
        submit(group, MetaBootstrap.command("fat-btree", 3, members, NODES, points, id -> List.of()));
        submit(group, new MetaCommand.ChangeRange(1, 1, 1, "d1", List.of(), RangeState.SERVING));
        return group.member("d1").current();
    }

    private static void submit(InMemoryMetadataGroup group, MetaCommand c) {
        CommandResult r = group.member("d1").submit(c, Duration.ofSeconds(5)).join();
        assertThat(r.applied()).as(r.refusal()).isTrue();
    }

    /** Every node's copies of the tree bulk-loaded over the state's ranges, fanout 3. */
    private static Map<String, NodeCopies> tree(MetaState s) {
        List<BulkLoad.Leaf> leaves = s.ranges().stream().map(r -> new BulkLoad.Leaf(r.id(), r.low(), r.owner()))
                .toList();
        return new LinkedHashMap<>(BulkLoad.load(leaves, 3, Layout.FAT_BTREE, NODES));
    }

    /** Answers every fetch from the asked node's copies, the answer passed through {@code edit}. */
    private static PageNetwork answering(Map<String, NodeCopies> tree, Function<PageFetch.Answer, PageFetch.Answer>
            edit) {
        return new PageNetwork() {
            @Override
            public void send(String from, String to, PageMessage m) {
            }

            @Override
            public CompletableFuture<PageFetch.Answer> fetch(String from, String to, long page) {
                return CompletableFuture.completedFuture(edit.apply(PageFetch.answer(tree.get(to), page,
                        NODES.indexOf(from), false, 0)));
            }
        };
    }

    /** d1's rebuild over a network, on the calling thread. */
    private static PageRebuild.Result rebuild(MetaState s, PageNetwork net, PageRebuild.Creation creation) {
        AtomicReference<PageRebuild.Result> out = new AtomicReference<>();
        PageRebuild.Creation none = new PageRebuild.Creation(() -> null, 3, () -> {
            throw new AssertionError("no creation was seen");
        });
        new PageRebuild("d1", 0, List.of("d2", "d3", "d4"), net, Runnable::run, () -> s, out::set,
                creation != null ? creation : none).start();
        assertThat(out.get()).as("the rebuild ended").isNotNull();
        return out.get();
    }
}
