package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.RouteStamp;
import org.autodisk.core.protocol.Status;
import org.autodisk.core.protocol.TraverseRequest;
import org.autodisk.node.InMemoryCluster;
import org.autodisk.node.meta.CommandResult;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Routing by epoch with maps that disagree, made to disagree through the metadata's fault hook (a node's updates
 * held back): range 2 (keys from 0xAA, owner d3) is given to d2 while one node still routes by the old map. No
 * request is ever served by a node whose map does not give it the key; the stale side catches up and routes again.
 */
class EpochRoutingTest {

    private static final byte[] KEY = {(byte) 0xF0};

    private InMemoryCluster cluster;

    @BeforeEach
    void start() throws InterruptedException {
        cluster = new InMemoryCluster(3, Map.of("metadata.request-timeout-ms", 2000));
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private CompletableFuture<Frame> call(int node, Opcode op, byte[] body) {
        return cluster.call(node, Frame.request(op, 1, body));
    }

    private void giveRange2ToD2() {
        CommandResult r = cluster.metadata().member("d2").submit(new MetaCommand.ChangeRange(2, 1, 1, "d2",
                List.of(), RangeState.SERVING), Duration.ofSeconds(1)).join();
        assertThat(r.applied()).as(r.refusal()).isTrue();
    }

    private double metric(int node, String name) {
        return cluster.node(node).metrics().snapshot().getOrDefault(name, 0.0);
    }

    @Test
    void aSenderWithAnOldMapIsToldAndRoutesAgainOnceItCaughtUp() {
        cluster.metadata().holdUpdates("d1", true);
        giveRange2ToD2();
        CompletableFuture<Frame> insert = call(0, Opcode.INSERT, new InsertRequest(KEY, new byte[] {7}).encode());
        await().atMost(Duration.ofSeconds(10)).until(() -> metric(2, MetricNames.ROUTE_STALE_REPLIES) == 1);
        assertThat(insert).isNotDone();
        cluster.metadata().holdUpdates("d1", false);
        assertThat(Responses.status(insert.join().body())).isEqualTo(Status.OK);
        assertThat(cluster.node(1).store().get(KEY)).containsExactly(7);
        assertThat(cluster.node(2).store().get(KEY)).isNull();
        assertThat(metric(0, MetricNames.ROUTE_REROUTES)).isEqualTo(1);
    }

    @Test
    void aReceiverBehindTheSenderCatchesUpBeforeItServes() {
        cluster.metadata().holdUpdates("d2", true);
        giveRange2ToD2();
        CompletableFuture<Frame> insert = call(0, Opcode.INSERT, new InsertRequest(KEY, new byte[] {8}).encode());
        await().atMost(Duration.ofSeconds(10)).until(() -> metric(1, MetricNames.ROUTE_METADATA_WAITS) == 1);
        assertThat(insert).isNotDone();
        cluster.metadata().holdUpdates("d2", false);
        assertThat(Responses.status(insert.join().body())).isEqualTo(Status.OK);
        assertThat(cluster.node(1).store().get(KEY)).containsExactly(8);
        assertThat(cluster.node(2).store().get(KEY)).isNull();
        assertThat(metric(1, MetricNames.FORWARDED)).isZero();
    }

    @Test
    void aRequestRoutedByANewerMapIsNotServedByTheOldOwnerStillHoldingAnOldMap() {
        cluster.metadata().holdUpdates("d3", true);
        giveRange2ToD2();
        long version = cluster.metadata().member("d1").current().version();
        Frame routed = Frame.request(Opcode.INSERT, 1, new InsertRequest(KEY, new byte[] {3}).encode())
                .routed(new RouteStamp(2, 2, 1, version));
        CompletableFuture<Frame> insert = cluster.call(2, routed);
        await().atMost(Duration.ofSeconds(10)).until(() -> metric(2, MetricNames.ROUTE_METADATA_WAITS) == 1);
        cluster.metadata().holdUpdates("d3", false);
        assertThat(Responses.status(insert.join().body())).isEqualTo(Status.OK);
        assertThat(cluster.node(2).store().get(KEY)).isNull();
        assertThat(cluster.node(1).store().get(KEY)).containsExactly(3);
    }

    @Test
    void anOwnerBehindTheSenderServesAtOnceWhenItsRangeDidNotChange() {
        cluster.metadata().holdUpdates("d3", true);
        Frame split = call(0, Opcode.SPLIT, new KeyRequest(new byte[] {0x10}).encode()).join();
        assertThat(Responses.status(split.body())).isEqualTo(Status.OK);
        Frame r = call(0, Opcode.INSERT, new InsertRequest(KEY, new byte[] {2}).encode()).join();
        assertThat(Responses.status(r.body())).isEqualTo(Status.OK);
        assertThat(cluster.node(2).store().get(KEY)).containsExactly(2);
        assertThat(metric(2, MetricNames.ROUTE_METADATA_WAITS)).isZero();
        cluster.metadata().holdUpdates("d3", false);
    }

    @Test
    void aReceiverThatCannotCatchUpFailsTheRequestClearlyAndStoresNothing() {
        cluster.metadata().holdUpdates("d2", true);
        giveRange2ToD2();
        Frame r = call(0, Opcode.INSERT, new InsertRequest(KEY, new byte[] {9}).encode()).join();
        assertThat(Responses.status(r.body())).isEqualTo(Status.NODE_UNAVAILABLE);
        assertThat(Responses.errorMessage(r.body())).contains("node d2 routes by metadata v", "had not applied");
        assertThat(cluster.node(1).store().get(KEY)).isNull();
        assertThat(cluster.node(2).store().get(KEY)).isNull();
    }

    @Test
    void aTraverseThroughAStaleNodeReadsTheNewOwner() {
        giveRange2ToD2();
        call(1, Opcode.INSERT, new InsertRequest(KEY, new byte[] {5}).encode()).join();
        CommandResult back = cluster.metadata().member("d2").submit(new MetaCommand.ChangeRange(2, 2, 1, "d3",
                List.of(), RangeState.SERVING), Duration.ofSeconds(1)).join();
        assertThat(back.applied()).isTrue();
        cluster.node(2).store().put(KEY, new byte[] {6});
        cluster.metadata().holdUpdates("d1", true);
        CommandResult again = cluster.metadata().member("d2").submit(new MetaCommand.ChangeRange(2, 3, 1, "d2",
                List.of(), RangeState.SERVING), Duration.ofSeconds(1)).join();
        assertThat(again.applied()).isTrue();
        CompletableFuture<Frame> page = call(0, Opcode.TRAVERSE, new TraverseRequest(new byte[] {(byte) 0xE0}, null,
                10).encode());
        await().atMost(Duration.ofSeconds(10)).until(() -> metric(2, MetricNames.ROUTE_STALE_REPLIES) == 1);
        cluster.metadata().holdUpdates("d1", false);
        assertThat(Responses.parseTraverse(page.join().body()).entries()).singleElement()
                .satisfies(kv -> assertThat(kv.value()).containsExactly(5));
    }

    @Test
    void aSplitDoesNotTurnAwayRequestsRoutedByTheOldGeneration() {
        cluster.metadata().holdUpdates("d1", true);
        Frame split = call(2, Opcode.SPLIT, new KeyRequest(new byte[] {(byte) 0xE0}).encode()).join();
        assertThat(Responses.status(split.body())).isEqualTo(Status.OK);
        Frame r = call(0, Opcode.INSERT, new InsertRequest(KEY, new byte[] {4}).encode()).join();
        assertThat(Responses.status(r.body())).isEqualTo(Status.OK);
        assertThat(cluster.node(2).store().get(KEY)).containsExactly(4);
        assertThat(metric(2, MetricNames.ROUTE_STALE_REPLIES)).isZero();
        cluster.metadata().holdUpdates("d1", false);
    }
}
