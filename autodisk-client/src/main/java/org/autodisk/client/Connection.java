package org.autodisk.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.autodisk.core.net.ChannelException;
import org.autodisk.core.net.RequestChannel;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.RouteStamp;
import org.autodisk.core.protocol.Status;

/**
 * One connection to one node, over the shared {@link RequestChannel}: sends requests and turns the answers and
 * the channel's failures into the client's exceptions. A request whose connection was lost fails with
 * {@link ConnectionLost}, which the dispatcher may retry on another seed.
 */
final class Connection {

    private final RequestChannel channel;
    private final Seed seed;

    private Connection(RequestChannel channel, Seed seed) {
        this.channel = channel;
        this.seed = seed;
    }

    /**
     * Sends the HELLO of a client and reads the node's id.
     *
     * @param channel  the new channel
     * @param clientId the client's name
     * @param timeout  how long to wait for the answer
     * @return the node id; fails with {@link ProtocolVersionException} if the node speaks another version
     */
    static CompletableFuture<String> handshake(RequestChannel channel, String clientId, Duration timeout) {
        Frame hello = Frame.request(Opcode.HELLO, 0, Hello.of(Hello.PeerKind.CLIENT, clientId).encode());
        return channel.send(hello, timeout).handle((frame, error) -> {
            if (error != null) {
                throw new CompletionException(toClient(error, null));
            }
            Status status = Responses.status(frame.body());
            if (status != Status.OK) {
                throw Errors.fromStatus(status, Responses.errorMessage(frame.body()), null);
            }
            return Hello.answeringNode(frame.body());
        });
    }

    /**
     * Wraps a channel whose handshake succeeded.
     *
     * @param channel the channel
     * @param seed    the seed it was opened to
     * @return the connection
     */
    static Connection of(RequestChannel channel, Seed seed) {
        return new Connection(channel, seed);
    }

    /**
     * Sends a request.
     *
     * @param op      the operation
     * @param body    the encoded request body
     * @param traced  whether to ask for a per-hop trace
     * @param timeout how long to wait for the answer
     * @return the successful reply; fails with the exception matching the node's status, with
     *         {@link RequestTimeoutException}, or with {@link ConnectionLost}
     */
    CompletableFuture<Reply> request(Opcode op, byte[] body, boolean traced, Duration timeout) {
        return request(op, body, traced, timeout, null);
    }

    /**
     * Sends a request stamped with what the client routed it by.
     *
     * @param op      the operation
     * @param body    the encoded request body
     * @param traced  whether to ask for a per-hop trace
     * @param timeout how long to wait for the answer
     * @param stamp   the range, epoch and metadata version it was routed by, or {@code null}
     * @return as {@link #request(Opcode, byte[], boolean, Duration)}
     */
    CompletableFuture<Reply> request(Opcode op, byte[] body, boolean traced, Duration timeout, RouteStamp stamp) {
        Frame frame = new Frame(Frame.PROTOCOL_VERSION, op.code(), traced ? Frame.FLAG_TRACE : 0, 0, 0, body);
        return channel.send(stamp == null ? frame : frame.routed(stamp), timeout).handle((answer, error) -> {
            if (error != null) {
                throw new CompletionException(toClient(error, nodeId()));
            }
            return Reply.of(answer, nodeId());
        });
    }

    /**
     * Turns a channel failure into the client's exception.
     *
     * @param error  the failure
     * @param nodeId the node, or {@code null} before the handshake
     * @return the exception to fail the request with
     */
    static RuntimeException toClient(Throwable error, String nodeId) {
        Throwable cause = Errors.unwrap(error);
        if (!(cause instanceof ChannelException e)) {
            return Errors.rethrowable(cause);
        }
        return switch (e.kind()) {
            case UNREACHABLE -> new NodeUnavailableException(e.getMessage(), null, nodeId, e.getCause());
            case NOT_SENT, LOST -> new ConnectionLost(e.getMessage(), e.written(), nodeId, e.getCause());
            case DEADLINE -> new RequestTimeoutException(e.getMessage(), null, nodeId);
            case DISMISSED -> Errors.fromStatus(e.status(), e.getMessage(), nodeId);
            case UNREADABLE -> new AutoDiskException(e.getMessage(), e.status(), nodeId);
        };
    }

    /**
     * Tells whether the connection can carry requests.
     *
     * @return true while the channel is open and connected
     */
    boolean isActive() {
        return channel.isActive();
    }

    /** Closes the connection; pending requests fail. */
    void close() {
        channel.close();
    }

    /**
     * Returns the node id from the handshake.
     *
     * @return the node id
     */
    String nodeId() {
        return channel.remoteId();
    }

    /**
     * Returns the seed this connection was opened to.
     *
     * @return the seed
     */
    Seed seed() {
        return seed;
    }

    /**
     * Returns the channel, for tests.
     *
     * @return the Netty channel
     */
    io.netty.channel.Channel channel() {
        return channel.channel();
    }

    @Override
    public String toString() {
        return channel.describe();
    }
}
