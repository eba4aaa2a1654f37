package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MemberStatus;
import org.autodisk.core.config.ConfigException;
import org.autodisk.node.AutoDiskNode;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.lifecycle.StartupStep;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data node started with a new id and the seeds of a running cluster joins it: the metadata adds it (joining,
 * then up), every node reaches it without a configuration change, the balance rules split a range and move its
 * upper half to it by themselves, and it serves that range - also after it restarts (or failed to start at a step
 * of its joining), and to an original node that restarted with a configuration that does not name it.
 */
class NodeJoinTest {

    private static final int KEYS = 300;

    @Test
    void aNewDataNodeJoinsTakesARangeFromTheRulesAndServesItAcrossRestarts(@TempDir Path dir) {
        // one range per data node: the rule "split for an empty data node" splits the fuller one and moves its upper
        // half to the newcomer
        Map<String, Object> config = Map.of("wal.multiplicity", 1, "balance.check-ms", 300);
        try (MiniCluster c = MiniCluster.start(2, 1, dir, config)) {
            AutoDiskClient client = c.clientOf(0);
            for (int i = 0; i < KEYS; i++) {
                client.insert(key(i), Keys.utf8("v" + i));
            }
            int d3 = c.addJoiner();
            assertThat(c.id(d3)).isEqualTo("d3");
            // a joining node that failed after its replica was added, or after its addition, starts again
            failAt(c, d3, StartupStep.JOIN);
            failAt(c, d3, StartupStep.JOINED);
            assertThat(c.node(0).metadata().current().member("d3").state()).isEqualTo(MemberState.JOINING);
            c.startNode(d3);
            await().atMost(Duration.ofSeconds(60)).until(() -> owns(c.node(0).metadata().current(), "d3")
                    && c.node(0).metadata().current().migrations().isEmpty());
            Member joined = c.node(0).metadata().current().member("d3");
            assertThat(joined.state()).isEqualTo(MemberState.UP);
            assertThat(joined.address()).isEqualTo(c.address(d3));
            assertThat(client.admin().members().members()).extracting(MemberStatus::id, MemberStatus::state)
                    .contains(org.assertj.core.groups.Tuple.tuple("d3", "up"));
            MetaState after = c.node(0).metadata().current();
            assertThat(after.created().dataNodes()).containsExactly("d1", "d2");
            assertThat(after.ranges()).extracting(RangeDescriptor::owner).containsExactlyInAnyOrder("d1", "d2", "d3");
            allThere(c.clientOf(d3));
            allThere(client);

            c.stopNode(d3);
            c.startNode(d3);
            c.stopNode(0);
            c.startNode(0);
            c.awaitMetadata();
            allThere(c.clientOf(0));
            RangeDescriptor moved = c.node(0).metadata().current().ranges().stream()
                    .filter(r -> r.owner().equals("d3")).findFirst().orElseThrow();
            byte[] inMoved = moved.low().length == 0 ? new byte[] {1} : moved.low();
            c.clientOf(0).insert(inMoved, Keys.utf8("after restarts"));
            assertThat(c.clientOf(d3).search(inMoved)).contains(Keys.utf8("after restarts"));
        }
    }

    @Test
    void aJoiningNodeWithTheIdOfAMemberElsewhereIsRefusedAndNothingChanges() {
        try (MiniCluster c = MiniCluster.start(1, 0, null, Map.of())) {
            long version = c.node(0).metadata().current().version();
            NodeConfig clash = NodeConfig.of(Map.of("node.id", "d1", "cluster.nodes", List.of("d1=data@127.0.0.1:"
                    + MiniCluster.freeFixedPort()), "cluster.join", List.of(c.address(0)), "cluster.secret",
                    MiniCluster.SECRET, "store.engine", "memory"));
            assertThatThrownBy(() -> AutoDiskNode.start(clash)).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("is a member of the cluster already, at " + c.address(0));
            assertThat(c.node(0).metadata().current().version()).isEqualTo(version);
        }
    }

    private static void failAt(MiniCluster c, int node, StartupStep step) {
        assertThatThrownBy(() -> c.startNode(node, Map.of(), b -> b.failAt(step)))
                .hasMessageContaining("start-up step " + step + " failed");
    }

    private static void allThere(AutoDiskClient client) {
        for (int i = 0; i < KEYS; i++) {
            assertThat(client.search(key(i))).as("key %d", i).contains(Keys.utf8("v" + i));
        }
    }

    /** Keys spread over the whole key space, so that every range holds some. */
    private static byte[] key(int i) {
        return new byte[] {(byte) (i * 256 / KEYS), (byte) (i >> 8), (byte) i};
    }

    private static boolean owns(MetaState s, String node) {
        return s.ranges().stream().anyMatch(r -> r.owner().equals(node));
    }
}
