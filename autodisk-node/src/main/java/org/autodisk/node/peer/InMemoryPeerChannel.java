package org.autodisk.node.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;

/**
 * A {@link PeerChannel} that hands frames to other nodes in the same JVM, for tests without sockets. Nodes
 * are registered by id with the entry point that accepts a request and a reply callback.
 */
public final class InMemoryPeerChannel implements PeerChannel {

    private final Map<String, BiConsumer<Frame, Consumer<Frame>>> endpoints;
    private final Map<String, Boolean> down = new ConcurrentHashMap<>();
    private final Map<String, List<Runnable>> held = new ConcurrentHashMap<>();
    /** Which requests' answers are held, per peer; guarded by {@code held}. */
    private final Map<String, Predicate<Frame>> holding = new ConcurrentHashMap<>();

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

    /**
     * Holds back the answers of a peer until released (fault injection: a slow peer). Requests still reach it.
     *
     * @param nodeId the peer
     * @param hold   true to hold its answers; false to release the held ones, in order, and stop holding
     */
    public void holdAnswers(String nodeId, boolean hold) {
        if (hold) {
            holdAnswers(nodeId, request -> true);
            return;
        }
        List<Runnable> waiting;
        synchronized (held) {
            holding.remove(nodeId);
            waiting = held.remove(nodeId);
        }
        if (waiting != null) {
            waiting.forEach(Runnable::run);
        }
    }

    /**
     * Holds back a peer's answers to some requests until {@code holdAnswers(nodeId, false)} (fault injection: a
     * source whose chunk is slow, say).
     *
     * @param nodeId   the peer
     * @param requests which requests' answers to hold
     */
    public void holdAnswers(String nodeId, Predicate<Frame> requests) {
        synchronized (held) {
            holding.put(nodeId, requests);
            held.putIfAbsent(nodeId, new ArrayList<>());
        }
    }

    /**
     * Tells how many answers of a peer are held.
     *
     * @param nodeId the peer
     * @return how many
     */
    public int heldAnswers(String nodeId) {
        synchronized (held) {
            List<Runnable> waiting = held.get(nodeId);
            return waiting == null ? 0 : waiting.size();
        }
    }

    private void answer(String nodeId, Frame request, CompletableFuture<Frame> response, Frame frame) {
        synchronized (held) {
            List<Runnable> waiting = held.get(nodeId);
            if (waiting != null && holding.getOrDefault(nodeId, r -> true).test(request)) {
                waiting.add(() -> response.complete(frame));
                return;
            }
        }
        response.complete(frame);
    }

    @Override
    public CompletableFuture<Frame> send(String nodeId, Frame request) {
        BiConsumer<Frame, Consumer<Frame>> endpoint = endpoints.get(nodeId);
        if (endpoint == null || down.getOrDefault(nodeId, false)) {
            return CompletableFuture.failedFuture(new PeerException(Status.NODE_UNAVAILABLE,
                    "peer " + nodeId + " is unreachable"));
        }
        CompletableFuture<Frame> response = new CompletableFuture<>();
        endpoint.accept(request, frame -> answer(nodeId, request, response, frame));
        return response;
    }

    @Override
    public void close() {
    }
}
