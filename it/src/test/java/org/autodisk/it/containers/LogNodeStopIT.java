package org.autodisk.it.containers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With log multiplicity 2, a log node container stopped ({@code docker kill}) does not stop inserts: the data
 * nodes go on with the other log node and report themselves degraded; what was written stays readable.
 */
@RequiresDocker
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LogNodeStopIT {

    @Test
    void insertsContinueOnTheRemainingLogNode() {
        try (ContainerCluster cluster = ClusterTopology.builder("m2").dataNodes(2).logNodes(2).multiplicity(2)
                .build().start(AutoDiskImage.name()); AutoDiskClient client = cluster.client("d1")) {
            for (int i = 0; i < 200; i++) {
                client.insert("before-" + i, "v" + i);
            }
            cluster.kill("l1");
            for (int i = 0; i < 200; i++) {
                client.insert("after-" + i, "w" + i);
            }
            for (int i = 0; i < 200; i += 7) {
                assertThat(client.search("before-" + i)).map(String::new).contains("v" + i);
                assertThat(client.search("after-" + i)).map(String::new).contains("w" + i);
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                NodeStatus d1 = client.status().nodes().stream().filter(n -> n.id().equals("d1")).findFirst()
                        .orElseThrow();
                return d1.metrics().getOrDefault(MetricNames.WAL_DEGRADED, 0.0) == 1.0;
            });
        }
    }
}
