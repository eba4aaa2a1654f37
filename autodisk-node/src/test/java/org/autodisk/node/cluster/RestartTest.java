package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.NodeUnavailableException;
import org.autodisk.core.Keys;
import org.autodisk.node.MiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes on RocksDB: a restarted node finds its data; while it is down, its keys fail clearly; configured with another
 * directory kind, it keeps the one its cluster was created with.
 */
class RestartTest {

    @TempDir
    Path dir;

    @Test
    void restartedNodeServesWhatItStoredAndOthersRouteToItAgain() {
        try (MiniCluster cluster = MiniCluster.start(2, dir, Map.of())) {
            // a short request timeout: the client sends a search refused while d2 is down again until then
            AutoDiskClient viaD1 = AutoDiskClient.builder().seeds(cluster.address(0))
                    .requestTimeout(java.time.Duration.ofSeconds(2)).build();
            byte[] d2Key = {(byte) 0xC0, 1};
            for (int i = 0; i < 200; i++) {
                viaD1.insert(new byte[] {(byte) 0xC0, (byte) i, 7}, Keys.utf8("value-" + i));
            }
            viaD1.insert(d2Key, Keys.utf8("before restart"));
            long count = cluster.node(1).store().count();
            cluster.stopNode(1);
            assertThatThrownBy(() -> viaD1.search(d2Key)).isInstanceOf(NodeUnavailableException.class)
                    .hasMessageContaining("d2");
            cluster.startNode(1, Map.of("cluster.directory", "fat-btree"), b -> { });
            assertThat(cluster.node(1).directory().kind()).as("the kind the cluster was created with, not the one "
                    + "configured at the restart").isEqualTo("range");
            assertThat(cluster.node(1).store().count()).isEqualTo(count);
            assertThat(viaD1.search(d2Key)).map(String::new).contains("before restart");
            assertThat(viaD1.search(new byte[] {(byte) 0xC0, 99, 7})).map(String::new).contains("value-99");
            viaD1.close();
        }
    }
}
