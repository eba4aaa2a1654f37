package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failover under the Fat-Btree, over sockets, Raft and RocksDB (three data nodes, two log nodes, multiplicity 2,
 * twelve ranges under index pages of fanout 3): once a stopped data node is declared failed and its ranges went to
 * their backups, every key is read, written and traversed through each surviving node, though their index copies
 * still name the failed node as those leaves' owner (routing takes the metadata's owner for a failed member). When
 * the node returns, it moves the leaves its copies still name it the owner of to their new owners, and every copy
 * agrees with the metadata again.
 */
class FatBtreeFailoverTest {

    private static final int KEYS = 400;

    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return new byte[] {(byte) (i * 37), (byte) (i >> 8), (byte) i};
    }

    private static byte[] value(String tag, int i) {
        return (tag + i).getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, Object> config() {
        Map<String, Object> cfg = new HashMap<>(Map.of("wal.multiplicity", 2, "failure.suspect-ms", 600,
                "failure.heartbeat-ms", 150, "lease.ms", 1000, "metadata.request-timeout-ms", 5000,
                "forward.timeout-ms", 5000, "cluster.directory", "fat-btree", "directory.fanout", 3));
        cfg.put("cluster.split-points", IntStream.rangeClosed(1, 11)
                .mapToObj(i -> String.format("0x%02x", i * 0x15)).toList());
        return cfg;
    }

    @Test
    void aFailedOwnersLeavesAreReachedThroughEverySurvivorAndTheTreeFollowsWhenItReturns() {
        try (MiniCluster c = MiniCluster.start(3, 2, dir, config())) {
            AutoDiskClient viaD2 = c.clientOf(1);
            for (int i = 0; i < KEYS; i++) {
                viaD2.insert(key(i), value("a", i));
            }
            List<Integer> ofD1 = c.node(1).metadata().current().ranges().stream()
                    .filter(r -> r.owner().equals("d1")).map(r -> r.id()).toList();
            assertThat(ofD1).isNotEmpty();

            c.stopNode(0);
            await("d1's ranges failed over").atMost(Duration.ofSeconds(60)).until(() -> {
                MetaState s = c.node(1).metadata().current();
                return s.member("d1").state() == MemberState.FAILED && s.ranges().stream()
                        .allMatch(r -> !r.owner().equals("d1") && r.state() == RangeState.SERVING);
            });
            for (int n : new int[] {1, 2}) {
                AutoDiskClient via = c.clientOf(n);
                for (int i = n - 1; i < KEYS; i += 2) {
                    via.insert(key(i), value("b", i));
                }
            }
            assertEveryKey(c, List.of(1, 2));

            c.startNode(0);
            await("d1 rejoined").atMost(Duration.ofSeconds(60))
                    .until(() -> c.node(1).metadata().current().member("d1").state() == MemberState.UP);
            Map<String, FatBtreeDirectory> dirs = new LinkedHashMap<>();
            IntStream.range(0, 3).forEach(i -> dirs.put(c.id(i), (FatBtreeDirectory) c.node(i).directory()));
            await("every copy agrees with the metadata after d1's return").atMost(Duration.ofSeconds(60))
                    .until(() -> FatBtreeClusterTest.violations(dirs, c.node(1).metadata().current()).isEmpty());
            assertEveryKey(c, List.of(0, 1, 2));
        }
    }

    /** Every key reads its second value through each node, and traverse walks them all in key order. */
    private static void assertEveryKey(MiniCluster c, List<Integer> nodes) {
        for (int n : nodes) {
            AutoDiskClient via = c.clientOf(n);
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                byte[] v = via.search(key(i)).orElse(null);
                if (v == null || !new String(v, StandardCharsets.UTF_8).equals("b" + i)) {
                    wrong.add(i + "=" + (v == null ? null : new String(v, StandardCharsets.UTF_8)));
                }
            }
            assertThat(wrong).as("keys read wrong through %s", c.id(n)).isEmpty();
            assertThat(via.traverseStream(new byte[0], null).map(e -> e.key()).toList())
                    .as("traverse through %s", c.id(n)).hasSize(KEYS).isSortedAccordingTo(Keys::compare);
        }
    }
}
