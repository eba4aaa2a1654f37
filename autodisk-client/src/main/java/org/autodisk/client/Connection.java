package org.autodisk.client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.DecodeFailure;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to one node: sends request frames and matches response frames to them by request id. Each
 * request has a timeout scheduled on the connection's event loop; when the connection closes every pending
 * request fails with {@link ConnectionLost}.
 */
final class Connection {

    private static final Logger LOG = LoggerFactory.getLogger(Connection.class);

    private final Channel channel;
    private final Seed seed;
    private final AtomicLong ids;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private volatile String nodeId;

    /** A request waiting for its answer. Written and timed out on the event loop. */
    private static final class Pending {
        private final Opcode op;
        private final CompletableFuture<Frame> future = new CompletableFuture<>();
        private volatile boolean written;
        private volatile ScheduledFuture<?> timeout;

        Pending(Opcode op) {
            this.op = op;
        }
    }

    Connection(Channel channel, Seed seed, AtomicLong ids) {
        this.channel = channel;
        this.seed = seed;
        this.ids = ids;
    }

    /**
     * Sends the HELLO and waits for the node's id.
     *
     * @param clientId the client's name
     * @param timeout  how long to wait for the answer
     * @return the node id; fails with {@link ProtocolVersionException} if the node speaks another version
     */
    CompletableFuture<String> handshake(String clientId, Duration timeout) {
        byte[] hello = Hello.of(Hello.PeerKind.CLIENT, clientId).encode();
        return send(Opcode.HELLO, hello, 0, timeout).thenApply(frame -> {
            Reply reply = Reply.of(frame, null);
            String id = reply.parse(body -> new BodyReader(body, 1, body.length).string("node id"));
            nodeId = id;
            return id;
        });
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
        return send(op, body, traced ? Frame.FLAG_TRACE : 0, timeout).thenApply(frame -> Reply.of(frame, nodeId));
    }

    private CompletableFuture<Frame> send(Opcode op, byte[] body, int flags, Duration timeout) {
        long id = ids.getAndIncrement();
        Pending p = new Pending(op);
        pending.put(id, p);
        if (!channel.isActive()) {
            fail(id, lost(p, id, null));
            return p.future;
        }
        try {
            p.timeout = channel.eventLoop().schedule(() -> expire(id, timeout), timeout.toNanos(),
                    TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            fail(id, lost(p, id, e));
            return p.future;
        }
        p.future.whenComplete((frame, error) -> p.timeout.cancel(false));
        // the listener must be in place before the write: it then runs on the event loop as the bytes leave,
        // before the channel can be seen closing, so a request that was sent is never taken for unsent
        ChannelPromise promise = channel.newPromise();
        promise.addListener(f -> {
            if (f.isSuccess()) {
                p.written = true;
            } else {
                fail(id, lost(p, id, f.cause()));
            }
        });
        channel.writeAndFlush(new Frame(Frame.PROTOCOL_VERSION, op.code(), flags, 0, id, body), promise);
        return p.future;
    }

    private void expire(long id, Duration timeout) {
        Pending p = pending.get(id);
        if (p == null) {
            return;
        }
        String what = p.op == Opcode.HELLO ? "handshake" : p.op + " #" + id;
        fail(id, new RequestTimeoutException("no answer from " + describe() + " to " + what + " within "
                + timeout.toMillis() + " ms", null, nodeId));
    }

    /**
     * Handles a frame from the node.
     *
     * @param frame the frame
     */
    void onFrame(Frame frame) {
        Pending p = frame.isResponse() ? pending.remove(frame.requestId()) : null;
        if (p != null) {
            p.future.complete(frame);
            return;
        }
        Status status = statusOf(frame);
        if (frame.requestId() == 0 && status != null && status != Status.OK) {
            String message = Responses.errorMessage(frame.body());
            LOG.warn("{} is closing the connection: {} {}", describe(), status, message);
            failAll(Errors.fromStatus(status, message, nodeId));
            channel.close();
            return;
        }
        LOG.debug("dropping {} from {}: no request is waiting for it", frame, describe());
    }

    private static Status statusOf(Frame frame) {
        try {
            return Responses.status(frame.body());
        } catch (ProtocolException e) {
            return null;
        }
    }

    /**
     * Handles a frame the decoder could not read.
     *
     * @param failure what was wrong
     */
    void onDecodeFailure(DecodeFailure failure) {
        AutoDiskException e = new AutoDiskException("unreadable answer from " + describe() + ": "
                + failure.message(), failure.status(), nodeId);
        if (failure.connectionLost()) {
            LOG.warn("closing the connection to {}: {}", describe(), failure.message());
            failAll(e);
            channel.close();
        } else {
            fail(failure.requestId(), e);
        }
    }

    /** Fails every pending request: called when the channel has closed. */
    void onClosed() {
        for (Long id : pending.keySet()) {
            Pending p = pending.remove(id);
            if (p != null) {
                p.future.completeExceptionally(lost(p, id, null));
            }
        }
    }

    private void failAll(RuntimeException e) {
        for (Long id : pending.keySet()) {
            fail(id, e);
        }
    }

    private void fail(long id, RuntimeException e) {
        Pending p = pending.remove(id);
        if (p != null) {
            p.future.completeExceptionally(e);
        }
    }

    private ConnectionLost lost(Pending p, long id, Throwable cause) {
        String what = p.op == Opcode.HELLO ? "the handshake" : p.op + " #" + id;
        String message = p.written
                ? "connection to " + describe() + " closed before the answer to " + what
                : "connection to " + describe() + " is closed: " + what + " was not sent";
        return new ConnectionLost(message, p.written, nodeId, cause);
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
     * @return the node id, or {@code null} before the handshake finished
     */
    String nodeId() {
        return nodeId;
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
     * @return the channel
     */
    Channel channel() {
        return channel;
    }

    private String describe() {
        return nodeId == null ? "node at " + seed : "node " + nodeId + " at " + seed;
    }

    @Override
    public String toString() {
        return describe();
    }
}
