package org.autodisk.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.core.config.ConfigException;
import org.autodisk.core.config.ConfigLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every impossible or misspelt configuration is refused before anything starts, with a message that names the key,
 * the value and the file, variable or flag it came from.
 */
class RefusedConfigurationTest {

    private static final String SECRET = "0123456789abcdef-test";

    @TempDir
    Path dir;

    /** d1..dN data nodes and l1..lM log nodes, as the YAML file {@code node.yaml}. */
    private Path cluster(int data, int logs, String more) throws IOException {
        StringBuilder y = new StringBuilder("node:\n  id: d1\ncluster:\n  secret: \"" + SECRET + "\"\n  nodes:\n");
        for (int i = 1; i <= data + logs; i++) {
            String id = i <= data ? "d" + i : "l" + (i - data);
            y.append("    - \"").append(id).append('=').append(i <= data ? "data" : "log").append("@127.0.0.1:")
                    .append(7400 + i).append("\"\n");
        }
        Path f = dir.resolve("node.yaml");
        Files.writeString(f, y + more);
        return f;
    }

    @Test
    void aMultiplicityAboveTheLogNodesIsRefusedNamingItsVariable() throws IOException {
        Path f = cluster(2, 0, "");
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of("AUTODISK_WAL_MULTIPLICITY", "2")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("wal.multiplicity 2 (from environment variable AUTODISK_WAL_MULTIPLICITY)")
                .hasMessageContaining("has 0 log node(s)");
        assertThat(NodeConfig.load(f, Map.of()).logNodes()).isEmpty();
    }

    @Test
    void aMultiplicityAboveTwoIsRefusedEvenWithEnoughLogNodes() throws IOException {
        Path f = cluster(1, 3, "wal:\n  multiplicity: 3\n");
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of()))
                .hasMessageContaining("wal.multiplicity 3 (from " + f + ") needs 1 or 2");
    }

    @Test
    void aMultiplicityFromAFlagIsNamedByTheFlag() throws IOException {
        Path f = cluster(2, 1, "");
        List<ConfigLayer> flags = List.of(new ConfigLayer("--multiplicity", Map.of("wal.multiplicity", 2)));
        assertThatThrownBy(() -> NodeConfig.load(f, flags, Map.of()))
                .hasMessageContaining("wal.multiplicity 2 (from --multiplicity)");
    }

    @Test
    void splitPointsThatLeaveADataNodeWithoutARangeAreRefused() throws IOException {
        Path f = cluster(3, 0, "");
        List<ConfigLayer> one = List.of(new ConfigLayer("--split-points", Map.of("cluster.split-points",
                List.of("h"))));
        assertThatThrownBy(() -> NodeConfig.load(f, one, Map.of()))
                .hasMessageContaining("cluster.split-points h (from --split-points) makes 2 ranges for the 3 data "
                        + "nodes").hasMessageContaining("d3 would own no range");
        List<ConfigLayer> two = List.of(new ConfigLayer("--split-points", Map.of("cluster.split-points",
                List.of("h", "p"))));
        assertThat(NodeConfig.load(f, two, Map.of()).splitPoints()).hasSize(2);
    }

    @Test
    void anUnknownEnvironmentVariableIsRefusedWithTheClosestKey() throws IOException {
        Path f = cluster(1, 0, "");
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of("AUTODISK_QUEUE_WOKERS", "3")))
                .hasMessageContaining("unknown environment variable AUTODISK_QUEUE_WOKERS: it names")
                .hasMessageContaining("did you mean AUTODISK_QUEUE_WORKERS?");
    }

    @Test
    void theProjectsOwnScriptVariablesAreNotConfiguration() throws IOException {
        Path f = cluster(1, 0, "");
        assertThat(NodeConfig.load(f, Map.of("AUTODISK_NO_BUILD", "1", "AUTODISK_IMAGE", "x", "PATH", "/bin"))
                .nodeId()).isEqualTo("d1");
    }

    @Test
    void anUnknownKeyFromSetIsNamedWithSetAndTheClosestKey() throws IOException {
        Path f = cluster(1, 0, "");
        List<ConfigLayer> set = List.of(new ConfigLayer("--set", Map.of("queue.woikers", "3")));
        assertThatThrownBy(() -> NodeConfig.load(f, set, Map.of()))
                .hasMessageContaining("unknown configuration key 'queue.woikers' in --set")
                .hasMessageContaining("did you mean queue.workers?");
    }

    @Test
    void aWrongTypeNamesTheValueAndWhereItCameFrom() throws IOException {
        Path f = cluster(1, 0, "queue:\n  capacity: lots\n");
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of()))
                .hasMessage("configuration key 'queue.capacity' expects a whole number but got 'lots' (from " + f
                        + ")");
        Path g = cluster(1, 0, "");
        assertThatThrownBy(() -> NodeConfig.load(g, Map.of("AUTODISK_STORE_SYNC_WRITES", "maybe")))
                .hasMessage("configuration key 'store.sync-writes' expects true or false but got 'maybe' (from "
                        + "environment variable AUTODISK_STORE_SYNC_WRITES)");
    }

    @Test
    void aMissingNodeIdNamesTheFileAndTheVariable() throws IOException {
        Path f = dir.resolve("no-id.yaml");
        Files.writeString(f, "cluster:\n  nodes: [\"d1=data@127.0.0.1:7401\"]\n");
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of("PATH", "/bin")))
                .hasMessageContaining("'node.id' is required").hasMessageContaining(f.toString())
                .hasMessageContaining("AUTODISK_NODE_ID");
    }

    @Test
    void theMetricsPortMayNotBeTheNodesOwnPort() throws IOException {
        Path f = cluster(1, 0, "metrics:\n  http-port: 7401\n");
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of()))
                .hasMessageContaining("metrics.http-port 7401 (from " + f + ") is the port this node already "
                        + "listens on");
        Path g = cluster(1, 0, "metrics:\n  http-port: 70000\n");
        assertThatThrownBy(() -> NodeConfig.load(g, Map.of())).hasMessageContaining("above 65535");
    }

    @Test
    void theMetadataPortAboveTheListenPortMustExist() throws IOException {
        Path f = cluster(1, 0, "");
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of("AUTODISK_NODE_LISTEN", "127.0.0.1:65000")))
                .hasMessageContaining("metadata port this node listens on (node.listen + offset) at 66000");
    }

    @Test
    void doubleLoggingNeedsTwoLogNodes() throws IOException {
        Path f = cluster(2, 1, "rules:\n  double-log-prefixes: [\"audit/\"]\n");
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of()))
                .hasMessageContaining("rules.double-log-prefixes audit/ (from " + f + ") needs at least 2 log nodes");
    }

    @Test
    void votersMustBeMembers() throws IOException {
        Map<String, Object> m = new LinkedHashMap<>(Map.of("metadata.voters", List.of("d1", "d7")));
        Path f = cluster(2, 0, "");
        assertThatThrownBy(() -> NodeConfig.load(f, List.of(new ConfigLayer("--set", m)), Map.of()))
                .hasMessageContaining("metadata.voters d1,d7 (from --set) names 'd7'");
    }

    @Test
    void onlyADataNodeJoinsARunningClusterFollowingItsVotersThroughSeedsThatAreAddresses() {
        Map<String, Object> join = Map.of("cluster.secret", SECRET, "cluster.join", List.of("127.0.0.1:7401"));
        Map<String, Object> log = new LinkedHashMap<>(join);
        log.putAll(Map.of("node.id", "l9", "cluster.nodes", List.of("l9=log@127.0.0.1:7409")));
        assertThatThrownBy(() -> NodeConfig.of(log)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("but l9 is a log node: only a data node joins a running cluster");
        Map<String, Object> data = new LinkedHashMap<>(join);
        data.putAll(Map.of("node.id", "d9", "cluster.nodes", List.of("d9=data@127.0.0.1:7409")));
        NodeConfig joining = NodeConfig.of(data);
        assertThat(joining.joinSeeds()).containsExactly("127.0.0.1:7401");
        Map<String, Object> two = new LinkedHashMap<>(data);
        two.put("wal.multiplicity", 2);
        ClusterMember l1 = new ClusterMember("l1", ClusterMember.Role.LOG, ClusterMember.parseAddress("h:1"));
        assertThatThrownBy(() -> NodeConfig.of(two).joined(List.of(l1), List.of("d1"), List.of(), null, 0))
                .as("checked against the log nodes of the cluster it joins").hasMessageContaining("has 1 log node(s)");
        Map<String, Object> voters = new LinkedHashMap<>(data);
        voters.put("metadata.voters", List.of("d9"));
        assertThatThrownBy(() -> NodeConfig.of(voters)).hasMessageContaining("a joining node follows the voters of "
                + "the cluster it joins; leave metadata.voters unset");
        Map<String, Object> badSeed = new LinkedHashMap<>(data);
        badSeed.put("cluster.join", List.of("seed-without-port"));
        assertThatThrownBy(() -> NodeConfig.of(badSeed)).hasMessageContaining("address 'seed-without-port' is not "
                + "host:port");
    }
}
