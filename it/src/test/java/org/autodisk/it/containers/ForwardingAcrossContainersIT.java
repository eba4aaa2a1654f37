package org.autodisk.it.containers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.StreamEntry;
import org.autodisk.client.Traced;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.protocol.TraceHop;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Node-to-node forwarding between containers: three data nodes and a log node on one Docker network, each
 * reached by the test through its own published port. Inserts through d1 of keys other nodes own travel
 * d1 → owner; reads through d2 and d3 and a traverse through d3 see every key.
 */
@RequiresDocker
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ForwardingAcrossContainersIT {

    private static final int KEYS_PER_RANGE = 25;

    private static ContainerCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = ClusterTopology.builder("forwarding").dataNodes(3).logNodes(1).multiplicity(1)
                .directory("range").build().start(AutoDiskImage.name());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void insertsThroughOneNodeReachTheOwnersAndEveryNodeReadsThem() {
        try (AutoDiskClient viaD1 = cluster.client("d1"); AutoDiskClient viaD2 = cluster.client("d2");
                AutoDiskClient viaD3 = cluster.client("d3")) {
            ClusterStatus status = viaD1.status();
            assertThat(status.nodes()).extracting(NodeStatus::id).containsExactly("d1", "d2", "d3", "l1");
            assertThat(status.nodes()).extracting(NodeStatus::role).containsExactly("data", "data", "data", "log");
            assertThat(status.nodes()).allMatch(NodeStatus::reachable, "every node reachable from d1");
            assertThat(status.ranges()).extracting(RangeStatus::owner).containsExactly("d1", "d2", "d3");

            Map<byte[], String> written = insertThroughD1(viaD1, status);

            for (Map.Entry<byte[], String> e : written.entrySet()) {
                assertThat(viaD2.search(e.getKey())).map(String::new).contains(e.getValue());
                assertThat(viaD3.search(e.getKey())).map(String::new).contains(e.getValue());
            }
            byte[] d3Key = RangeKeys.keyIn(RangeKeys.ownedBy(status, "d3").get(0), "k000");
            Traced<Optional<byte[]>> read = viaD2.async().searchTraced(d3Key).join();
            assertThat(read.hops()).extracting(TraceHop::nodeId).containsExactly("d3", "d2");

            List<StreamEntry> all = viaD3.traverse(new byte[0], null, 10_000);
            assertThat(all).extracting(e -> new String(e.value(), StandardCharsets.UTF_8))
                    .containsExactlyElementsOf(written.values());
            assertThat(viaD2.traverseStream(new byte[0], null).count()).isEqualTo(written.size());

            ClusterStatus after = viaD3.status();
            assertThat(after.reportedBy()).isEqualTo("d3");
            assertThat(after.nodes()).filteredOn(n -> n.role().equals("data"))
                    .extracting(NodeStatus::streamCount).containsOnly((long) KEYS_PER_RANGE);
        }
    }

    /** Inserts keys of every range through d1 with tracing and checks the path each insert took. */
    private static Map<byte[], String> insertThroughD1(AutoDiskClient viaD1, ClusterStatus status) {
        Map<byte[], String> written = new TreeMap<>(Arrays::compareUnsigned);
        List<String> forwardedTo = new ArrayList<>();
        for (RangeStatus range : status.ranges()) {
            for (int i = 0; i < KEYS_PER_RANGE; i++) {
                byte[] key = RangeKeys.keyIn(range, String.format("k%03d", i));
                String value = range.owner() + "-" + i;
                Traced<Void> t = viaD1.async().insertTraced(key, value.getBytes(StandardCharsets.UTF_8)).join();
                List<String> path = t.hops().stream().map(TraceHop::nodeId).toList();
                if (range.owner().equals("d1")) {
                    assertThat(path).as("d1 stores its own key").containsExactly("d1");
                } else {
                    assertThat(path).as("d1 forwards to the owner").containsExactly(range.owner(), "d1");
                    assertThat(t.hops().get(1).action()).isEqualTo("forward:" + range.owner());
                    forwardedTo.add(range.owner());
                }
                written.put(key, value);
            }
        }
        assertThat(forwardedTo).contains("d2", "d3");
        return written;
    }
}
