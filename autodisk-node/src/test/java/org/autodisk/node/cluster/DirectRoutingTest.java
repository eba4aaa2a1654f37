package org.autodisk.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.Traced;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.protocol.TraceHop;
import org.autodisk.node.MiniCluster;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client with direct routing on real nodes: three data nodes split at "h" and "p", the client's seed is d1. Keyed
 * requests reach their owner in one hop; after an owner change the old owner refuses the stale route, the request
 * is forwarded through the seed, and the refreshed table routes straight to the new owner.
 */
class DirectRoutingTest {

    private static MiniCluster cluster;
    private static AutoDiskClient direct;

    @BeforeAll
    static void start() {
        cluster = MiniCluster.start(3, null, Map.of("cluster.split-points", List.of("h", "p")));
        direct = AutoDiskClient.builder().seeds(cluster.address(0)).directRouting(true).build();
    }

    @AfterAll
    static void stop() {
        direct.close();
        cluster.close();
    }

    private static List<String> hops(String key) {
        Traced<Void> t = direct.async().insertTraced(Keys.utf8(key), Keys.utf8("v")).join();
        return t.hops().stream().map(TraceHop::nodeId).toList();
    }

    @Test
    void keyedRequestsGoStraightToTheirOwner() {
        await().atMost(Duration.ofSeconds(10)).until(() -> hops("q-direct").equals(List.of("d3")));
        assertThat(hops("i-direct")).containsExactly("d2");
        assertThat(hops("a-direct")).containsExactly("d1");
        assertThat(direct.search("i-direct")).map(String::new).contains("v");
        assertThat(direct.delete("i-direct")).isTrue();
        assertThat(cluster.node(1).store().get(Keys.utf8("i-direct"))).isNull();
    }

    @Test
    void aStaleTableCostsOneForwardAndARefreshNeverAWrongAnswer() {
        await().atMost(Duration.ofSeconds(10)).until(() -> hops("x-warm").equals(List.of("d3")));
        RangeDescriptor top = cluster.node(0).metadata().current().rangeOf(Keys.utf8("x"));
        CommandResult moved = cluster.node(0).metadata().submit(new MetaCommand.ChangeRange(top.id(), top.epoch(),
                top.generation(), "d2", List.of(), RangeState.SERVING), Duration.ofSeconds(5)).join();
        assertThat(moved.applied()).isTrue();
        cluster.awaitMetadata();
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.node(2).metadata().current().version()
                >= moved.version());
        assertThat(hops("x-after-move")).containsExactly("d2", "d1");
        assertThat(cluster.node(2).metrics().snapshot().get(MetricNames.ROUTE_STALE_REPLIES)).isEqualTo(1.0);
        assertThat(cluster.node(1).store().get(Keys.utf8("x-after-move"))).isEqualTo(Keys.utf8("v"));
        assertThat(cluster.node(2).store().get(Keys.utf8("x-after-move"))).isNull();
        await().atMost(Duration.ofSeconds(10)).until(() -> hops("y-refreshed").equals(List.of("d2")));
    }
}
