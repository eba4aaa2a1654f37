package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Caller;
import org.autodisk.node.wire.PeerOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Fat-Btree as the directory of an in-process cluster (3 data nodes, 2 log nodes, 12 ranges, fanout 3: three
 * levels of index pages), its page messages going node to node as PAGE_MESSAGE requests through each node's
 * dispatcher: writes through one node and reads through another reach every key over several hops; ranges split and
 * move (real migrations) while the copies follow, and afterwards every copy is where it belongs and every key is
 * still reached from every node; the same over sockets and Raft, where a data node stops while others split ranges
 * (their changes wait for it), restarts from the copies in its page store, catches up and splits its own. Bad page
 * messages are refused, and nothing changes.
 */
class FatBtreeClusterTest {

    private static final int KEYS = 600;
    private static final Map<String, Object> CONFIG = Map.of("cluster.directory", "fat-btree", "directory.fanout", 3,
            "cluster.split-points", IntStream.rangeClosed(1, 11).mapToObj(i -> String.format("0x%02x", i * 0x15))
                    .toList(), "wal.multiplicity", 2, "metadata.request-timeout-ms", 5000,
            "forward.timeout-ms", 20_000);

    private static byte[] key(int i) {
        return new byte[] {(byte) (i * 7), (byte) (i >> 8), (byte) i};
    }

    private static byte[] value(int i) {
        return ("v" + i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keysAreReachedFromEveryNodeWhileRangesSplitAndMoveUnderTheTree() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 2, CONFIG)) {
            Map<String, FatBtreeDirectory> dirs = directories(c);
            assertThat(dirs.get("d1").copies().page(dirs.get("d1").copies().rootId()).level()).as("levels")
                    .isGreaterThanOrEqualTo(3);
            assertThat(dirs.values()).allSatisfy(d -> assertThat(d.copies().pages().size())
                    .as("index pages held by one node").isLessThan(indexPages(dirs)));
            for (int i = 0; i < KEYS; i++) {
                assertThat(insert(c, i % 3, i)).as("insert of key %d", i).isEqualTo(Status.OK);
            }
            assertEveryKeyFromEveryNode(c);

            Metadata meta = c.node(0).metadata();
            for (int id : List.of(0, 3, 5, 8, 11)) {
                RangeDescriptor r = meta.current().range(id);
                byte[] at = {(byte) ((r.low().length == 0 ? 0 : r.low()[0] & 0xff) + 0x0a)};
                commit(meta, new MetaCommand.Split(id, r.generation(), at));
            }
            for (int id : List.of(1, 6)) {
                RangeDescriptor r = meta.current().range(id);
                String to = r.owner().equals("d3") ? "d1" : "d3";
                commit(meta, new MetaCommand.StartMigration(id, r.epoch(), r.generation(), to, 0, "admin"));
            }
            await("migrations ended").atMost(Duration.ofSeconds(60))
                    .until(() -> meta.current().migrations().isEmpty());
            await("the copies followed every change").atMost(Duration.ofSeconds(30))
                    .until(() -> violations(dirs, meta.current()).isEmpty());
            assertThat(meta.current().ranges()).hasSize(17);
            assertEveryKeyFromEveryNode(c);
        }
    }

    /** The same over real sockets and Raft: page messages as PAGE_MESSAGE frames on the nodes' peer connections. */
    @Test
    void overSocketsAndRaftSplitsAndAMoveAreFollowedAndEveryKeyIsReached(@TempDir Path dir) {
        try (MiniCluster c = MiniCluster.start(3, 2, dir, CONFIG)) {
            AutoDiskClient viaD1 = c.clientOf(0);
            AutoDiskClient viaD3 = c.clientOf(2);
            Map<String, FatBtreeDirectory> dirs = new LinkedHashMap<>();
            IntStream.range(0, 3).forEach(i -> dirs.put(c.id(i), (FatBtreeDirectory) c.node(i).directory()));
            for (int i = 0; i < KEYS; i++) {
                viaD1.insert(key(i), value(i));
            }
            for (int at : List.of(0x0a, 0x49, 0xb2)) {
                viaD3.admin().split(new byte[] {(byte) at});
            }
            MigrationStatus m = viaD3.admin().migrate(4, "d3", 0L);
            await("the migration's end").atMost(Duration.ofSeconds(60))
                    .until(() -> viaD1.admin().migrations().migrations().isEmpty());
            await("the copies followed every change").atMost(Duration.ofSeconds(30))
                    .until(() -> violations(dirs, c.node(0).metadata().current()).isEmpty());
            assertThat(c.node(0).metadata().current().range(m.rangeId()).owner()).isEqualTo("d3");
            assertThat(c.node(0).metadata().current().ranges()).hasSize(15);
            for (int i = 0; i < KEYS; i++) {
                assertThat(viaD3.search(key(i))).as("key %d through d3", i).contains(value(i));
                assertThat(viaD1.search(key(i))).as("key %d through d1", i).contains(value(i));
            }
            for (AutoDiskClient via : List.of(viaD1, viaD3)) {
                List<byte[]> walked = via.traverseStream(new byte[0], null).map(e -> e.key()).toList();
                assertThat(walked).as("traverse over 15 ranges on 3 nodes, in key order").hasSize(KEYS)
                        .isSortedAccordingTo(org.autodisk.core.Keys::compare);
            }
            assertDirectoryReport(viaD3.admin().directory(), dirs, c.node(0).metadata().current());
            c.stopNode(1);
            for (byte[] at : splitKeys(c.node(0).metadata().current(), "d2", false)) {
                viaD1.admin().split(at);
            }
            c.startNode(1, Map.of("cluster.directory", "range", "directory.fanout", 64), b -> { });
            assertThat(c.node(1).directory().kind()).as("the kind the cluster was created with").isEqualTo("fat-btree");
            await("d2's tree started").atMost(Duration.ofSeconds(30)).until(() -> c.node(1).directory().ready());
            assertThat(c.node(1).directory().fanout()).as("the fanout the cluster was created with").isEqualTo(3);
            dirs.put("d2", (FatBtreeDirectory) c.node(1).directory());
            for (byte[] at : splitKeys(c.node(0).metadata().current(), "d2", true)) {
                c.clientOf(1).admin().split(at);
            }
            await("the copies caught up after d2's restart").atMost(Duration.ofSeconds(30))
                    .until(() -> violations(dirs, c.node(0).metadata().current()).isEmpty());
            assertThat(c.node(0).metadata().current().ranges()).hasSize(19);
            for (int i = 0; i < KEYS; i++) {
                assertThat(c.clientOf(1).search(key(i))).as("key %d through the restarted d2", i).contains(value(i));
                assertThat(viaD1.search(key(i))).as("key %d through d1", i).contains(value(i));
            }
            restartWithoutIndex(c, dirs);
        }
    }

    /**
     * d3 loses its index directory while down, the others split ranges meanwhile: it takes its copies up again from
     * its peers (PAGE_FETCH), catches up, splits its own ranges, and every key is reached through it.
     */
    private static void restartWithoutIndex(MiniCluster c, Map<String, FatBtreeDirectory> dirs) {
        Set<Long> held = new HashSet<>(dirs.get("d3").copies().pages().keySet());
        Path index = c.config(2).dataDir().resolve("index");
        c.stopNode(2);
        deleteTree(index);
        for (byte[] at : splitKeys(c.node(0).metadata().current(), "d3", false)) {
            c.clientOf(0).admin().split(at);
        }
        c.startNode(2);
        await("d3's tree taken up from its peers").atMost(Duration.ofSeconds(30))
                .until(() -> c.node(2).directory().ready());
        dirs.put("d3", (FatBtreeDirectory) c.node(2).directory());
        assertThat(dirs.get("d3").copies().pages().keySet()).as("d3's copies, fetched").containsAll(held);
        for (byte[] at : splitKeys(c.node(0).metadata().current(), "d3", true)) {
            c.clientOf(2).admin().split(at);
        }
        await("the copies caught up after d3 took its copies up again").atMost(Duration.ofSeconds(30))
                .until(() -> violations(dirs, c.node(0).metadata().current()).isEmpty());
        for (int i = 0; i < KEYS; i++) {
            assertThat(c.clientOf(2).search(key(i))).as("key %d through d3", i).contains(value(i));
        }
    }

    private static void deleteTree(Path root) {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(root)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(p);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Two keys, each inside a different range owned (or not, {@code owned} false) by a node, to split at. */
    private static List<byte[]> splitKeys(MetaState s, String node, boolean owned) {
        List<byte[]> out = new ArrayList<>();
        Set<Integer> ranges = new HashSet<>();
        for (int i = 0; i < KEYS && out.size() < 2; i++) {
            RangeDescriptor r = s.rangeOf(key(i));
            if (r.owner().equals(node) == owned && !java.util.Arrays.equals(r.low(), key(i)) && ranges.add(r.id())) {
                out.add(key(i));
            }
        }
        return out;
    }

    /** {@code directory}: what each node reports is what its copies hold, and the tree's pages are counted once. */
    private static void assertDirectoryReport(DirectoryReport r, Map<String, FatBtreeDirectory> dirs, MetaState s) {
        assertThat(r.kind()).isEqualTo("fat-btree");
        assertThat(r.fanout()).isEqualTo(3);
        Set<Long> distinct = new HashSet<>();
        dirs.values().forEach(d -> distinct.addAll(d.copies().pages().keySet()));
        assertThat(r.indexPages()).isEqualTo(distinct.size());
        NodeCopies any = dirs.values().iterator().next().copies();
        assertThat(r.levels()).isEqualTo(any.page(any.rootId()).level()).isGreaterThanOrEqualTo(2);
        assertThat(r.nodes()).extracting(DirectoryReport.NodeIndex::id).containsExactlyElementsOf(dirs.keySet());
        for (DirectoryReport.NodeIndex n : r.nodes()) {
            assertThat(n.error()).isNull();
            assertThat(n.indexPages()).as(n.id()).isEqualTo(dirs.get(n.id()).copies().pages().size())
                    .isEqualTo(n.pages().size()).isLessThan(r.indexPages());
            assertThat(n.leaves()).as(n.id()).isEqualTo(s.ranges().stream().filter(x -> x.owner().equals(n.id()))
                    .count());
            assertThat(n.pages().get(0).id()).as("the root first").isEqualTo(any.rootId());
        }
    }

    @Test
    void badPageMessagesAreRefusedAndChangeNothing() throws Exception {
        try (InMemoryCluster c = new InMemoryCluster(3, 0, Map.of("cluster.directory", "fat-btree",
                "directory.fanout", 3, "cluster.split-points", CONFIG.get("cluster.split-points")))) {
            Map<String, FatBtreeDirectory> dirs = directories(c);
            int before = dirs.get("d2").copies().pages().size();
            Frame garbage = call(c, 1, PeerOp.PAGE_MESSAGE.request(new byte[] {1, 2, 'd', '1', 9}));
            assertThat(Responses.status(garbage.body())).isEqualTo(Status.MALFORMED);
            assertThat(Responses.errorMessage(garbage.body())).contains("unknown kind 9");
            byte[] otherBuild = PageMessageCodec.encode("d1", new PageMessage.Release(1));
            otherBuild[0] = 2;
            Frame refused = call(c, 1, PeerOp.PAGE_MESSAGE.request(otherBuild));
            assertThat(Responses.status(refused.body())).isEqualTo(Status.UNSUPPORTED_VERSION);
            assertThat(Responses.errorMessage(refused.body())).contains("of format 2: this node reads format 1");
            assertThat(dirs.get("d2").copies().pages()).hasSize(before);
            assertThat(violations(dirs, c.node(0).metadata().current())).isEmpty();
            Frame cut = call(c, 1, PeerOp.PAGE_FETCH.request(new byte[] {1, 2, 'd', '1', 0}));
            assertThat(Responses.status(cut.body())).isEqualTo(Status.MALFORMED);
            assertThat(Responses.errorMessage(cut.body())).contains("page fetch is malformed");
            Frame root = call(c, 1, PeerOp.PAGE_FETCH.request(PageFetch.encodeRequest("d1", PageFetch.ROOT)));
            PageFetch.Answer a = PageFetch.decodeAnswer(Responses.parseBytes(root.body()));
            assertThat(a.page().id()).as("d2's root").isEqualTo(dirs.get("d2").copies().rootId());
            assertThat(dirs.get("d2").copies().pages()).hasSize(before);
        }
        try (InMemoryCluster range = new InMemoryCluster(1, 0, Map.of())) {
            Frame refused = call(range, 0, PeerOp.PAGE_MESSAGE.request(PageMessageCodec.encode("d2",
                    new PageMessage.Release(1))));
            assertThat(Responses.status(refused.body())).isEqualTo(Status.INVALID_ARGUMENT);
            assertThat(Responses.errorMessage(refused.body())).contains("runs the range directory");
            Frame fetch = call(range, 0, PeerOp.PAGE_FETCH.request(PageFetch.encodeRequest("d2", 1)));
            assertThat(Responses.status(fetch.body())).isEqualTo(Status.INVALID_ARGUMENT);
            assertThat(Responses.errorMessage(fetch.body())).contains("page fetches belong to the fat-btree");
        }
    }

    private static Frame call(InMemoryCluster c, int node, Frame request) throws Exception {
        return c.call(node, request, Caller.NODE).get(30, TimeUnit.SECONDS);
    }

    private static Map<String, FatBtreeDirectory> directories(InMemoryCluster c) {
        Map<String, FatBtreeDirectory> out = new LinkedHashMap<>();
        for (int i = 0; i < 3 && i < c.node(0).metadata().current().created().dataNodes().size(); i++) {
            out.put(c.node(i).id(), (FatBtreeDirectory) c.node(i).directory());
        }
        return out;
    }

    private static int indexPages(Map<String, FatBtreeDirectory> dirs) {
        return (int) dirs.values().stream().flatMap(d -> d.copies().pages().keySet().stream()).distinct().count();
    }

    /** What is wrong with the nodes' copies once none has a change under way (also for the failover test). */
    static List<String> violations(Map<String, FatBtreeDirectory> dirs, MetaState state) {
        if (!dirs.values().stream().allMatch(d -> d.idle().join())) {
            return List.of("a change is under way");
        }
        Map<String, NodeCopies> all = new LinkedHashMap<>();
        dirs.forEach((id, d) -> all.put(id, d.copies()));
        return CopyInvariant.check(all, state);
    }

    private static void commit(Metadata meta, MetaCommand command) {
        CommandResult res = meta.submit(command, Duration.ofSeconds(5)).join();
        assertThat(res.applied()).as(res.refusal()).isTrue();
    }

    private static Status insert(InMemoryCluster c, int node, int i) throws Exception {
        Frame f = c.call(node, Frame.request(Opcode.INSERT, 1, new InsertRequest(key(i), value(i)).encode()))
                .get(30, TimeUnit.SECONDS);
        return Responses.status(f.body());
    }

    private static void assertEveryKeyFromEveryNode(InMemoryCluster c) throws Exception {
        List<String> wrong = new ArrayList<>();
        for (int node = 0; node < 3; node++) {
            for (int i = 0; i < KEYS; i++) {
                Frame f = c.call(node, Frame.request(Opcode.SEARCH, 1, new KeyRequest(key(i)).encode()))
                        .get(30, TimeUnit.SECONDS);
                if (Responses.status(f.body()) != Status.OK
                        || !java.util.Arrays.equals(Responses.parseSearch(f.body()), value(i))) {
                    wrong.add("key " + i + " from d" + (node + 1) + ": " + Responses.status(f.body()));
                }
            }
        }
        assertThat(wrong).as("keys not reached").isEmpty();
    }
}
