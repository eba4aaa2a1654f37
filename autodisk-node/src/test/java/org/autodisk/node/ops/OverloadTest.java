package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.AutoDiskNode;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.peer.InMemoryPeerChannel;
import org.junit.jupiter.api.Test;

/** A full queue answers OVERLOADED at once; the admitted requests still complete. */
class OverloadTest {

    @Test
    void fullQueueIsRefusedAtOnceAndAdmittedRequestsComplete() throws Exception {
        NodeConfig cfg = NodeConfig.of(Map.of("node.id", "d1", "cluster.nodes", List.of("d1=data@127.0.0.1:1"),
                "queue.capacity", 4, "queue.workers", 2));
        GatedStore store = new GatedStore(2);
        try (AutoDiskNode node = AutoDiskNode.builder(cfg).store(store).peers(g -> new InMemoryPeerChannel(Map.of()))
                .metadata(c -> new InMemoryMetadataGroup().member("d1")).withoutServer().start()) {
            org.awaitility.Awaitility.await().until(() -> node.directory().ready());
            List<CompletableFuture<Frame>> admitted = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                admitted.add(insert(node, i));
            }
            assertThat(store.entered.await(30, TimeUnit.SECONDS)).as("the workers reached the store").isTrue();
            for (int i = 2; i < 6; i++) {
                admitted.add(insert(node, i));
            }
            Frame refused = insert(node, 99).join();
            assertThat(Responses.status(refused.body())).isEqualTo(Status.OVERLOADED);
            assertThat(Responses.errorMessage(refused.body())).contains("queue.capacity");
            assertThat(node.metrics().snapshot()).containsEntry(MetricNames.OVERLOADED, 1.0);
            store.gate.countDown();
            for (CompletableFuture<Frame> f : admitted) {
                assertThat(Responses.status(f.join().body())).isEqualTo(Status.OK);
            }
            assertThat(store.puts()).isEqualTo(6);
        }
    }

    private static CompletableFuture<Frame> insert(AutoDiskNode node, int i) {
        CompletableFuture<Frame> f = new CompletableFuture<>();
        node.dispatcher().accept(Frame.request(Opcode.INSERT, i, new InsertRequest(new byte[] {(byte) i, 1},
                new byte[] {1}).encode()), Caller.CLIENT, f::complete);
        return f;
    }
}
