package org.autodisk.node;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
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
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.ops.Caller;
import org.autodisk.node.peer.InMemoryPeerChannel;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;

/**
 * Nodes with in-memory stores, logs and peer channels: the request logic without sockets or disks. Data nodes
 * d1..dN are nodes 0..N-1; log nodes l1..lM follow them.
 */
public final class InMemoryCluster implements AutoCloseable {

    private final Map<String, BiConsumer<Frame, Consumer<Frame>>> endpoints = new ConcurrentHashMap<>();
    private final List<AutoDiskNode> nodes = new ArrayList<>();
    private final List<InMemoryPeerChannel> peers = new ArrayList<>();
    private final List<String> members = new ArrayList<>();
    private final Map<String, Object> extra;
    private final int dataNodes;
    private final InMemoryMetadataGroup metadata = new InMemoryMetadataGroup();

    /**
     * Starts data nodes d1..dN without log nodes.
     *
     * @param dataNodes how many
     * @param extra     extra dotted configuration keys
     * @throws InterruptedException never in practice
     */
    public InMemoryCluster(int dataNodes, Map<String, Object> extra) throws InterruptedException {
        this(dataNodes, 0, extra);
    }

    /**
     * Starts log nodes l1..lM, then data nodes d1..dN.
     *
     * @param dataNodes how many data nodes
     * @param logNodes  how many log nodes
     * @param extra     extra dotted configuration keys
     * @throws InterruptedException never in practice
     */
    public InMemoryCluster(int dataNodes, int logNodes, Map<String, Object> extra) throws InterruptedException {
        this.extra = extra;
        this.dataNodes = dataNodes;
        for (int i = 1; i <= dataNodes; i++) {
            members.add("d" + i + "=data@127.0.0.1:" + (20000 + i));
        }
        for (int i = 1; i <= logNodes; i++) {
            members.add("l" + i + "=log@127.0.0.1:" + (21000 + i));
        }
        for (int i = 0; i < dataNodes + logNodes; i++) {
            nodes.add(null);
            peers.add(new InMemoryPeerChannel(endpoints));
        }
        for (int i = dataNodes; i < dataNodes + logNodes; i++) {
            start(i, LocalStores.inMemory());
        }
        for (int i = 0; i < dataNodes; i++) {
            start(i, LocalStores.inMemory());
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> nodes.stream().allMatch(n -> n.directory().ready()));
    }

    private String id(int i) {
        return i < dataNodes ? "d" + (i + 1) : "l" + (i - dataNodes + 1);
    }

    /**
     * Starts node {@code i} again with the given store, as after a crash (a data node then replays its log).
     *
     * @param i     node index
     * @param store the store it finds
     * @throws InterruptedException never in practice
     */
    public void start(int i, LocalStore store) throws InterruptedException {
        Map<String, Object> cfg = new HashMap<>(extra);
        cfg.put("store.engine", "memory");
        cfg.put("node.id", id(i));
        cfg.put("cluster.nodes", members);
        cfg.putIfAbsent("cluster.secret", MiniCluster.SECRET);
        cfg.putIfAbsent("failure.suspect-ms", 0);
        InMemoryPeerChannel channel = peers.get(i);
        String id = id(i);
        AutoDiskNode.Builder b = AutoDiskNode.builder(NodeConfig.of(cfg)).store(store).peers(g -> channel)
                .metadata(c -> metadata.member(id)).withoutServer();
        AutoDiskNode node = b.start();
        endpoints.put(node.id(), (frame, reply) -> node.dispatcher().accept(frame, Caller.NODE, reply::accept));
        nodes.set(i, node);
    }

    /**
     * Sends a request frame to node {@code i} as a client would.
     *
     * @param i       node index
     * @param request the frame
     * @return the response frame
     */
    public CompletableFuture<Frame> call(int i, Frame request) {
        return call(i, request, Caller.CLIENT);
    }

    /**
     * Sends a request frame to node {@code i} on a connection of the given kind.
     *
     * @param i       node index
     * @param request the frame
     * @param caller  a client, or a node that proved membership
     * @return the response frame
     */
    public CompletableFuture<Frame> call(int i, Frame request, Caller caller) {
        CompletableFuture<Frame> f = new CompletableFuture<>();
        nodes.get(i).dispatcher().accept(request, caller, f::complete);
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
     * Returns the metadata the nodes share, for fault injection and direct changes.
     *
     * @return the group
     */
    public InMemoryMetadataGroup metadata() {
        return metadata;
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
        nodes.stream().filter(n -> n != null).forEach(AutoDiskNode::close);
    }
}
