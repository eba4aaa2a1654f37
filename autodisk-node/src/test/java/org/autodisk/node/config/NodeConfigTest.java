package org.autodisk.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.autodisk.core.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeConfigTest {

    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        Path f = dir.resolve("node.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private static final String CLUSTER = """
            cluster:
              secret: "0123456789abcdef-test"
              nodes:
                - {id: d1, role: data, address: "127.0.0.1:7401"}
                - {id: d2, address: "127.0.0.1:7402"}
                - {id: l1, role: log, address: "127.0.0.1:7403"}
            """;

    @Test
    void loadsNestedYamlWithDefaultsAndMembers() throws IOException {
        NodeConfig c = NodeConfig.load(write("node:\n  id: d2\nqueue:\n  capacity: 50\n" + CLUSTER), Map.of());
        assertThat(c.nodeId()).isEqualTo("d2");
        assertThat(c.get(NodeConfigKeys.QUEUE_CAPACITY)).isEqualTo(50);
        assertThat(c.get(NodeConfigKeys.QUEUE_WORKERS)).isEqualTo(2);
        assertThat(c.dataNodes()).containsExactly("d1", "d2");
        assertThat(c.members().get(2).role()).isEqualTo(ClusterMember.Role.LOG);
        assertThat(c.listenAddress().getPort()).isEqualTo(7402);
        assertThat(c.dataDir().endsWith(Path.of("autodisk-data", "d2"))).isTrue();
        assertThat(c.effective()).containsEntry("queue.capacity", 50).containsKey("forward.hop-limit");
    }

    @Test
    void theMetadataReplicaListensAboveTheListenPortAndIsReachedAboveTheAddress() throws IOException {
        NodeConfig c = NodeConfig.load(write("node:\n  id: d2\n  listen: 127.0.0.1:7502\n" + CLUSTER), Map.of());
        assertThat(c.metadataSettings().port()).as("bound: listen port + offset").isEqualTo(8502);
        assertThat(c.metadataSettings().peers()).extracting(p -> p.address())
                .as("reached: address + offset, its own too").contains("127.0.0.1:8402", "127.0.0.1:8401");
    }

    @Test
    void environmentOverridesTheFileAndCanDefineTheWholeNode() {
        NodeConfig c = NodeConfig.load(null, Map.of("AUTODISK_NODE_ID", "d1",
                "AUTODISK_CLUSTER_NODES", "d1=data@10.0.0.1:7400,d2=data@10.0.0.2:7400",
                "AUTODISK_CLUSTER_SECRET", "0123456789abcdef-env", "AUTODISK_LIMITS_MAX_VALUE_BYTES", "1000"));
        assertThat(c.dataNodes()).containsExactly("d1", "d2");
        assertThat(c.limits().maxValueBytes()).isEqualTo(1000);
    }

    @Test
    void aClusterOfSeveralNodesNeedsASecretOfSixteenCharactersFromTheKeyOrAFile() throws IOException {
        String nodes = "  nodes:\n    - {id: d1, role: data, address: \"h:1\"}\n    - {id: d2, role: data, address: "
                + "\"h:2\"}\n";
        Path none = write("node:\n  id: d1\ncluster:\n" + nodes);
        assertThatThrownBy(() -> NodeConfig.load(none, Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("cluster.secret").hasMessageContaining(none.toString());
        Path secretFile = Files.writeString(dir.resolve("secret"), "0123456789abcdef-from-file\n");
        NodeConfig fromFile = NodeConfig.load(write("node:\n  id: d1\ncluster:\n  secret-file: \"" + secretFile
                + "\"\n" + nodes), Map.of());
        assertThat(fromFile.clusterSecret()).isEqualTo("0123456789abcdef-from-file");
        assertThatThrownBy(() -> NodeConfig.load(write("node:\n  id: d1\ncluster:\n  secret: short\n" + nodes),
                Map.of())).hasMessageContaining("at least 16");
        assertThatThrownBy(() -> NodeConfig.load(write("node:\n  id: d1\ncluster:\n  secret: "
                + "\"0123456789abcdef\"\n  secret-file: \"" + secretFile + "\"\n" + nodes), Map.of()))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> NodeConfig.load(write("node:\n  id: d1\ncluster:\n  secret-file: \"/nonexistent"
                + "\"\n" + nodes), Map.of())).hasMessageContaining("cannot read cluster.secret-file /nonexistent");
        assertThat(NodeConfig.of(Map.of("node.id", "d1", "cluster.nodes", List.of("d1=data@h:1"))).clusterSecret())
                .as("a one-node cluster has no peers to prove anything to").isNull();
    }

    @Test
    void secretsNeverAppearInTheEffectiveConfiguration() throws IOException {
        NodeConfig c = NodeConfig.load(write("node:\n  id: d2\n" + CLUSTER), Map.of());
        assertThat(c.effective()).containsEntry("cluster.secret", "<set>")
                .containsEntry("tls.key-store-password", "<not set>");
        assertThat(c.effective().toString()).doesNotContain("0123456789abcdef-test");
    }

    @Test
    void unknownKeyIsNamedWithTheFile() throws IOException {
        Path f = write("node:\n  id: d1\nqueue:\n  capacty: 5\n" + CLUSTER);
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("queue.capacty").hasMessageContaining(f.toString());
    }

    @Test
    void wrongTypeAndOutOfRangeValuesAreNamed() throws IOException {
        Path f = write("node:\n  id: d1\nqueue:\n  capacity: lots\n" + CLUSTER);
        assertThatThrownBy(() -> NodeConfig.load(f, Map.of())).hasMessageContaining("queue.capacity");
        Path g = write("node:\n  id: d1\nqueue:\n  workers: 0\n" + CLUSTER);
        assertThatThrownBy(() -> NodeConfig.load(g, Map.of()))
                .hasMessageContaining("queue.workers 0 (from " + g + ") must be at least 1");
    }

    @Test
    void nodeMustBeAMemberAndClusterNeedsADataNode() throws IOException {
        assertThatThrownBy(() -> NodeConfig.load(write("node:\n  id: d9\n" + CLUSTER), Map.of()))
                .hasMessageContaining("node.id 'd9' (from ").hasMessageContaining("is not in cluster.nodes");
        assertThatThrownBy(() -> NodeConfig.of(Map.of("node.id", "l1", "cluster.nodes", List.of("l1=log@h:1"))))
                .hasMessageContaining("no data node");
        assertThatThrownBy(() -> NodeConfig.of(Map.of("node.id", "d1", "cluster.nodes",
                List.of("d1=data@h:1", "d1=data@h:2")))).hasMessageContaining("twice");
        assertThatThrownBy(() -> NodeConfig.of(Map.of("node.id", "d1", "cluster.nodes", List.of("d1=data@nohost"))))
                .hasMessageContaining("not host:port");
        assertThatThrownBy(() -> NodeConfig.of(Map.of("node.id", "d1", "cluster.nodes", List.of("d1=disk@h:1"))))
                .hasMessageContaining("unknown node role 'disk'");
    }

    @Test
    void splitPointsMustBeSortedDistinctAndNonEmpty() {
        Map<String, Object> base = Map.of("node.id", "d1", "cluster.nodes", List.of("d1=data@h:1"));
        NodeConfig ok = NodeConfig.of(with(base, List.of("h", "0x70")));
        assertThat(ok.splitPoints()).hasSize(2);
        assertThatThrownBy(() -> NodeConfig.of(with(base, List.of("p", "h")))).hasMessageContaining("sorted");
        assertThatThrownBy(() -> NodeConfig.of(with(base, List.of("0xZZ")))).hasMessageContaining("not valid hex");
    }

    @Test
    void theDiskLimitOfTheBalancerIsAPercentage() {
        Map<String, Object> base = Map.of("node.id", "d1", "cluster.nodes", List.of("d1=data@h:1"));
        assertThat(NodeConfig.of(base).ruleConfig().balanceMaxDiskUsedPercent()).isEqualTo(92.5);
        for (double bad : new double[] {0, -5, 100.5}) {
            Map<String, Object> config = new java.util.HashMap<>(base);
            config.put("balance.max-disk-used-percent", bad);
            assertThatThrownBy(() -> NodeConfig.of(config)).hasMessageContaining("balance.max-disk-used-percent")
                    .hasMessageContaining("must be above 0 and at most 100");
        }
        Map<String, Object> full = new java.util.HashMap<>(base);
        full.put("balance.max-disk-used-percent", 100);
        assertThat(NodeConfig.of(full).ruleConfig().balanceShedDiskUsedPercent()).as("not set: follows it")
                .isEqualTo(100.0);
        full.put("balance.shed-disk-used-percent", 99);
        assertThatThrownBy(() -> NodeConfig.of(full)).as("set below it")
                .hasMessageContaining("balance.shed-disk-used-percent").hasMessageContaining("must be at least");
        full.put("balance.shed-disk-used-percent", 100);
        assertThat(NodeConfig.of(full).ruleConfig().balanceMaxDiskUsedPercent()).isEqualTo(100.0);
        assertThat(NodeConfig.of(base).ruleConfig().balanceShedDiskUsedPercent()).isEqualTo(95.0);
        Map<String, Object> over = new java.util.HashMap<>(base);
        over.put("balance.shed-disk-used-percent", 100.5);
        assertThatThrownBy(() -> NodeConfig.of(over)).hasMessageContaining("at most 100");
    }

    @Test
    void unsupportedDirectoryAndEngineAreRefused() {
        Map<String, Object> base = Map.of("node.id", "d1", "cluster.nodes", List.of("d1=data@h:1"));
        Map<String, Object> fat = new java.util.HashMap<>(base);
        fat.put("cluster.directory", "fat-btree");
        assertThat(NodeConfig.of(fat).get(NodeConfigKeys.DIRECTORY_FANOUT)).isEqualTo(64);
        fat.put("directory.fanout", 2);
        assertThatThrownBy(() -> NodeConfig.of(fat)).hasMessageContaining("directory.fanout").hasMessageContaining(
                "3 to 4096");
        fat.put("directory.fanout", 3);
        fat.put("cluster.join", List.of("h:2"));
        NodeConfig joining = NodeConfig.of(fat);
        assertThat(joining.directory()).isEqualTo("fat-btree");
        assertThat(joining.joined(List.of(), List.of("d0"), List.of(), "range", 0).directory()).as("the cluster's kind")
                .isEqualTo("range");
        assertThat(joining.directoryFanout()).isEqualTo(3);
        assertThat(joining.joined(List.of(), List.of("d0"), List.of(), "fat-btree", 16).directoryFanout())
                .as("the cluster's fanout").isEqualTo(16);
        Map<String, Object> btree = new java.util.HashMap<>(base);
        btree.put("cluster.directory", "b-tree");
        assertThatThrownBy(() -> NodeConfig.of(btree)).hasMessageContaining("b-tree").hasMessageContaining(
                "expected range or fat-btree");
        Map<String, Object> engine = new java.util.HashMap<>(base);
        engine.put("store.engine", "leveldb");
        assertThatThrownBy(() -> NodeConfig.of(engine)).hasMessageContaining("leveldb");
    }

    private static Map<String, Object> with(Map<String, Object> base, List<String> points) {
        Map<String, Object> m = new java.util.HashMap<>(base);
        m.put("cluster.split-points", points);
        return m;
    }
}
