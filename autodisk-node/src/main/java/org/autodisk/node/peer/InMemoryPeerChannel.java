package org.autodisk.node.peer;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;

/**
 * A {@link PeerChannel} that hands frames to other nodes in the same JVM, for tests without sockets. Nodes
 * are registered by id with the entry point that accepts a request and a reply callback.
 */
public final class InMemoryPeerChannel implements PeerChannel {

    private final Map<String, BiConsumer<Frame, Consumer<Frame>>> endpoints;
    private final Map<String, Boolean> down = new ConcurrentHashMap<>();

    /**
     * Creates a channel over a shared registry of endpoints.
     *
     * @param endpoints node id to entry point; shared by every node of the in-memory cluster
     */
    public InMemoryPeerChannel(Map<String, BiConsumer<Frame, Consumer<Frame>>> endpoints) {
        this.endpoints = endpoints;
    }

    /**
     * Marks a peer unreachable or reachable again (fault injection).
     *
     * @param nodeId      the peer
     * @param unreachable true to make sends to it fail
     */
    public void setUnreachable(String nodeId, boolean unreachable) {
        down.put(nodeId, unreachable);
    }

    @Override
    public CompletableFuture<Frame> send(String nodeId, Frame request) {
        BiConsumer<Frame, Consumer<Frame>> endpoint = endpoints.get(nodeId);
        if (endpoint == null || down.getOrDefault(nodeId, false)) {
            return CompletableFuture.failedFuture(new PeerException(Status.NODE_UNAVAILABLE,
                    "peer " + nodeId + " is unreachable"));
        }
        CompletableFuture<Frame> response = new CompletableFuture<>();
        endpoint.accept(request, response::complete);
        return response;
    }

    @Override
    public void close() {
    }
}
