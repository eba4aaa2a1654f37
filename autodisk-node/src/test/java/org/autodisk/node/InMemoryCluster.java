package org.autodisk.node;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.autodisk.core.protocol.Frame;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.peer.InMemoryPeerChannel;
import org.autodisk.node.store.LocalStores;

/** Nodes with in-memory stores and in-memory peer channels: the request logic without sockets or disks. */
public final class InMemoryCluster implements AutoCloseable {

    private final Map<String, BiConsumer<Frame, Consumer<Frame>>> endpoints = new ConcurrentHashMap<>();
    private final List<AutoDiskNode> nodes = new ArrayList<>();
    private final List<InMemoryPeerChannel> peers = new ArrayList<>();

    /**
     * Starts data nodes d1..dN.
     *
     * @param dataNodes how many
     * @param extra     extra dotted configuration keys
     * @throws InterruptedException never in practice
     */
    public InMemoryCluster(int dataNodes, Map<String, Object> extra) throws InterruptedException {
        List<String> members = new ArrayList<>();
        for (int i = 1; i <= dataNodes; i++) {
            members.add("d" + i + "=data@127.0.0.1:" + (20000 + i));
        }
        for (int i = 1; i <= dataNodes; i++) {
            Map<String, Object> cfg = new HashMap<>(extra);
            cfg.put("node.id", "d" + i);
            cfg.put("cluster.nodes", members);
            InMemoryPeerChannel channel = new InMemoryPeerChannel(endpoints);
            peers.add(channel);
            AutoDiskNode node = AutoDiskNode.builder(NodeConfig.of(cfg)).store(LocalStores.inMemory())
                    .peers(g -> channel).withoutServer().start();
            endpoints.put(node.id(), (frame, reply) -> node.dispatcher().accept(frame, reply::accept));
            nodes.add(node);
        }
    }

    /**
     * Sends a request frame to node {@code i} as a client would.
     *
     * @param i       node index
     * @param request the frame
     * @return the response frame
     */
    public CompletableFuture<Frame> call(int i, Frame request) {
        CompletableFuture<Frame> f = new CompletableFuture<>();
        nodes.get(i).dispatcher().accept(request, f::complete);
        return f;
    }

    /**
     * Returns node {@code i}.
     *
     * @param i node index
     * @return the node
     */
    public AutoDiskNode node(int i) {
        return nodes.get(i);
    }

    /**
     * Returns the peer channel of node {@code i}, for fault injection.
     *
     * @param i node index
     * @return its channel
     */
    public InMemoryPeerChannel peers(int i) {
        return peers.get(i);
    }

    @Override
    public void close() {
        nodes.forEach(AutoDiskNode::close);
    }
}
