package org.autodisk.node.peer;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.autodisk.core.net.ChannelException;
import org.autodisk.core.net.ChannelSettings;
import org.autodisk.core.net.RequestChannel;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;

/**
 * This node's connection to one peer, over the shared {@link RequestChannel}: connects lazily with the node
 * handshake, reconnects on the next send after the connection was lost, and turns channel failures into
 * {@link PeerException}s ({@code NODE_UNAVAILABLE}, or {@code TIMEOUT} past {@code forward.timeout-ms}).
 */
final class PeerConnection {

    private final String peerId;
    private final InetSocketAddress address;
    private final ChannelSettings settings;
    private final NodeHandshake handshake;
    private final Duration requestTimeout;
    private CompletableFuture<RequestChannel> connection;

    PeerConnection(String peerId, InetSocketAddress address, ChannelSettings settings, NodeHandshake handshake,
            Duration requestTimeout) {
        this.peerId = peerId;
        this.address = address;
        this.settings = settings;
        this.handshake = handshake;
        this.requestTimeout = requestTimeout;
    }

    CompletableFuture<Frame> send(Frame request) {
        CompletableFuture<RequestChannel> ready = channel();
        if (ready.isDone() && !ready.isCompletedExceptionally()) {
            return ready.join().send(request, requestTimeout);
        }
        return ready.exceptionally(e -> {
            throw new CompletionException(toPeer(peerId, e));
        }).thenCompose(ch -> ch.send(request, requestTimeout));
    }

    private synchronized CompletableFuture<RequestChannel> channel() {
        if (connection == null || connection.isCompletedExceptionally()
                || connection.isDone() && !connection.join().isActive()) {
            connection = RequestChannel.open(settings, address.getHostString(), address.getPort(), peerId,
                    ch -> handshake.perform(ch, peerId));
        }
        return connection;
    }

    /**
     * Turns a channel's failure into the peer's.
     *
     * @param peerId the peer
     * @param error  the failure
     * @return the exception requests to the peer fail with
     */
    static PeerException toPeer(String peerId, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof PeerException pe) {
            return pe;
        }
        if (cause instanceof ChannelException ce && ce.kind() == ChannelException.Kind.DEADLINE) {
            return new PeerException(Status.TIMEOUT, ce.getMessage() + " (forward.timeout-ms)");
        }
        return new PeerException(Status.NODE_UNAVAILABLE, "peer " + peerId + " is unavailable: "
                + cause.getMessage());
    }

    synchronized void close() {
        if (connection != null && connection.isDone() && !connection.isCompletedExceptionally()) {
            connection.join().close();
        }
    }
}
