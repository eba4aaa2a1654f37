package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data node joins a running Fat-Btree cluster (over sockets and Raft): it runs the cluster's directory and fanout
 * whatever its own configuration says, holds no index page while it owns no leaf and routes every key by the
 * metadata; a range moved to it gives it the root path (and every copy above the leaf names it), it splits its own
 * leaf, takes its copies up again after a restart, drops every copy once its last leaf moved away, and starts again
 * holding none; so does a node of the creation whose last leaf moved away (it never loads the creation's tree again).
 * After every step each copy is where it belongs and every key is read, and the whole key space traversed, through
 * every node.
 */
class FatBtreeJoinTest {

    private static final int KEYS = 400;
    private static final Map<String, Object> CONFIG = Map.of("cluster.directory", "fat-btree", "directory.fanout", 3,
            "cluster.split-points", IntStream.rangeClosed(1, 7).mapToObj(i -> String.format("0x%02x", i * 0x20))
                    .toList(), "wal.multiplicity", 1, "balance.check-ms", 3_600_000,
            "metadata.request-timeout-ms", 5000, "forward.timeout-ms", 20_000);

    @Test
    void aJoinedNodeGainsTheRootPathWithItsFirstRangeAndHoldsNothingAfterItsLast(@TempDir Path dir) {
        try (MiniCluster c = MiniCluster.start(2, 1, dir, CONFIG)) {
            AutoDiskClient viaD1 = c.clientOf(0);
            for (int i = 0; i < KEYS; i++) {
                viaD1.insert(key(i), value(i));
            }
            int d3 = c.join(Map.of("cluster.directory", "range", "directory.fanout", 64));
            assertThat(c.node(d3).directory().kind()).as("the cluster's kind, not its configuration's")
                    .isEqualTo(FatBtreeDirectory.KIND);
            assertThat(c.node(d3).directory().fanout()).as("the cluster's fanout").isEqualTo(3);
            FatBtreeDirectory joined = (FatBtreeDirectory) c.node(d3).directory();
            await("the joined node's directory").atMost(Duration.ofSeconds(30)).until(joined::ready);
            assertThat(joined.copies().pages()).as("no leaf, no page").isEmpty();
            everyKeyThroughEveryNode(c, 3);

            RangeDescriptor moved = meta(c).ranges().get(5);
            migrate(c, moved.id(), "d3");
            assertThat(joined.copies().rootId()).as("the root came with the leaf")
                    .isEqualTo(((FatBtreeDirectory) c.node(0).directory()).copies().rootId());
            assertThat(joined.copies().pathTo(moved.low())).hasSizeGreaterThanOrEqualTo(2);
            everyKeyThroughEveryNode(c, 3);

            c.clientOf(d3).admin().split(new byte[] {(byte) 0xb0});
            settled(c);
            c.stopNode(d3);
            c.startNode(d3);
            joined = (FatBtreeDirectory) c.node(d3).directory();
            assertThat(joined.copies().pages()).as("taken up from its page store").isNotEmpty();
            settled(c);
            everyKeyThroughEveryNode(c, 3);

            for (RangeDescriptor r : meta(c).ranges().stream().filter(r -> r.owner().equals("d3")).toList()) {
                migrate(c, r.id(), "d1");
            }
            assertThat(joined.copies().pages()).as("its last leaf left").isEmpty();
            everyKeyThroughEveryNode(c, 3);
            c.stopNode(d3);
            c.startNode(d3);
            FatBtreeDirectory again = (FatBtreeDirectory) c.node(d3).directory();
            await("the restarted node's directory").atMost(Duration.ofSeconds(30)).until(again::ready);
            assertThat(again.copies().pages()).isEmpty();
            everyKeyThroughEveryNode(c, 3);

            // a node of the creation whose last leaf moved away restarts: it starts holding nothing (which way it
            // starts from a metadata view of the creation, as a replay from the bootstrap gives, FatBtreeStartTest)
            for (RangeDescriptor r : meta(c).ranges().stream().filter(r -> r.owner().equals("d2")).toList()) {
                migrate(c, r.id(), "d3");
            }
            assertThat(((FatBtreeDirectory) c.node(1).directory()).copies().pages()).isEmpty();
            c.stopNode(1);
            c.startNode(1);
            FatBtreeDirectory d2 = (FatBtreeDirectory) c.node(1).directory();
            await("d2's directory").atMost(Duration.ofSeconds(30)).until(d2::ready);
            settled(c);
            assertThat(d2.copies().pages()).as("d2 owns no leaf").isEmpty();
            everyKeyThroughEveryNode(c, 3);
        }
    }

    private static void migrate(MiniCluster c, int rangeId, String to) {
        c.clientOf(0).admin().migrate(rangeId, to, 0L);
        await("the migration's end").atMost(Duration.ofSeconds(60))
                .until(() -> meta(c).migrations().isEmpty() && meta(c).range(rangeId).owner().equals(to));
        settled(c);
    }

    /** Waits until no node has a change under way and every copy agrees with the metadata. */
    private static void settled(MiniCluster c) {
        await("the copies followed every change").atMost(Duration.ofSeconds(30))
                .until(() -> FatBtreeClusterTest.violations(directories(c), meta(c)).isEmpty());
    }

    private static Map<String, FatBtreeDirectory> directories(MiniCluster c) {
        Map<String, FatBtreeDirectory> out = new LinkedHashMap<>();
        for (int i : List.of(0, 1, 3)) {
            out.put(c.id(i), (FatBtreeDirectory) c.node(i).directory());
        }
        return out;
    }

    private static MetaState meta(MiniCluster c) {
        return c.node(0).metadata().current();
    }

    private static void everyKeyThroughEveryNode(MiniCluster c, int joined) {
        for (int node : List.of(0, 1, joined)) {
            AutoDiskClient client = c.clientOf(node);
            for (int i = 0; i < KEYS; i++) {
                assertThat(client.search(key(i))).as("key %d through %s", i, c.id(node)).contains(value(i));
            }
            try (var all = client.traverseStream(new byte[0], null)) {
                assertThat(all.count()).as("traverse through %s", c.id(node)).isEqualTo(KEYS);
            }
        }
    }

    private static byte[] key(int i) {
        return new byte[] {(byte) (i * 256 / KEYS), (byte) (i >> 8), (byte) i};
    }

    private static byte[] value(int i) {
        return ("v" + i).getBytes(StandardCharsets.UTF_8);
    }
}
