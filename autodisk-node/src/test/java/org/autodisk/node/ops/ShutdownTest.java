package org.autodisk.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

/** Graceful shutdown: queued requests are answered, new ones get SHUTTING_DOWN, then the store closes. */
class ShutdownTest {

    @Test
    void closeDrainsAdmittedRequestsAndRefusesNewOnes() throws Exception {
        NodeConfig cfg = NodeConfig.of(Map.of("node.id", "d1", "cluster.nodes", List.of("d1=data@127.0.0.1:1"),
                "queue.workers", 1));
        GatedStore store = new GatedStore(1);
        AutoDiskNode node = AutoDiskNode.builder(cfg).store(store).peers(g -> new InMemoryPeerChannel(Map.of()))
                .metadata(c -> new InMemoryMetadataGroup().member("d1")).withoutServer().start();
        org.awaitility.Awaitility.await().until(() -> node.directory().ready());
        List<CompletableFuture<Frame>> admitted = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            admitted.add(insert(node, i));
        }
        assertThat(store.entered.await(30, TimeUnit.SECONDS)).as("the workers reached the store").isTrue();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(node::close);
        org.awaitility.Awaitility.await().until(() -> Responses.status(insert(node, 99).join().body())
                == Status.SHUTTING_DOWN);
        assertThat(closing).isNotDone();
        store.gate.countDown();
        closing.join();
        for (CompletableFuture<Frame> f : admitted) {
            assertThat(Responses.status(f.join().body())).isEqualTo(Status.OK);
        }
        assertThat(store.closed).isTrue();
        assertThat(store.puts()).isEqualTo(20);
    }

    private static CompletableFuture<Frame> insert(AutoDiskNode node, int i) {
        CompletableFuture<Frame> f = new CompletableFuture<>();
        node.dispatcher().accept(Frame.request(Opcode.INSERT, i, new InsertRequest(new byte[] {(byte) i, 2},
                new byte[] {1}).encode()), Caller.CLIENT, f::complete);
        return f;
    }
}
