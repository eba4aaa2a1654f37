package org.autodisk.node.peer;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    private final List<Waiting> waiting = new ArrayList<>();

    PeerConnection(String peerId, InetSocketAddress address, ChannelSettings settings, NodeHandshake handshake,
            Duration requestTimeout) {
        this.peerId = peerId;
        this.address = address;
        this.settings = settings;
        this.handshake = handshake;
        this.requestTimeout = requestTimeout;
    }

    /** A request that waits for the connection, in the order it was sent. */
    private record Waiting(Frame request, CompletableFuture<Frame> answer) {
    }

    /**
     * Sends a request. Requests sent while the connection is being made go out in the order they were sent once it
     * is made (a log node refuses appends that arrive out of order), or all fail if it cannot be made. No answer is
     * completed while this connection's lock is held: completions run the callers' code, which may hold their own
     * locks and send again.
     */
    CompletableFuture<Frame> send(Frame request) {
        CompletableFuture<RequestChannel> ready;
        Waiting w = null;
        boolean first = false;
        synchronized (this) {
            ready = channel();
            if (!waiting.isEmpty() || !ready.isDone() || ready.isCompletedExceptionally()) {
                w = new Waiting(request, new CompletableFuture<>());
                waiting.add(w);
                first = waiting.size() == 1;
            }
        }
        if (w == null) {
            return ready.join().send(request, requestTimeout);
        }
        if (first) {
            ready.whenComplete(this::drain);
        }
        return w.answer();
    }

    /** Sends (under the lock, so that no later request overtakes them) or fails what waited for the connection. */
    private void drain(RequestChannel ch, Throwable err) {
        List<Waiting> out;
        List<CompletableFuture<Frame>> sent = new ArrayList<>();
        synchronized (this) {
            out = new ArrayList<>(waiting);
            waiting.clear();
            for (Waiting w : out) {
                if (err == null) {
                    sent.add(ch.send(w.request(), requestTimeout));
                }
            }
        }
        for (int i = 0; i < out.size(); i++) {
            CompletableFuture<Frame> answer = out.get(i).answer();
            if (err != null) {
                answer.completeExceptionally(toPeer(peerId, err));
            } else {
                sent.get(i).whenComplete((frame, e) -> {
                    if (e != null) {
                        answer.completeExceptionally(e);
                    } else {
                        answer.complete(frame);
                    }
                });
            }
        }
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
            return new PeerException(Status.TIMEOUT, ce.getMessage() + " (forward.timeout-ms)", ce.written());
        }
        return new PeerException(Status.NODE_UNAVAILABLE, "peer " + peerId + " is unavailable: "
                + cause.getMessage(), cause instanceof ChannelException ce && ce.written());
    }

    synchronized void close() {
        if (connection != null && connection.isDone() && !connection.isCompletedExceptionally()) {
            connection.join().close();
        }
    }
}
