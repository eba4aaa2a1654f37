package org.autodisk.core.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLException;
import org.autodisk.core.protocol.DecodeFailure;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.FrameDecoder;
import org.autodisk.core.protocol.FrameEncoder;
import org.autodisk.core.protocol.Status;

/**
 * One connection that carries request frames out and their response frames back: the request/response mechanism
 * the client and the nodes share. Each request gets the next request id and a deadline (expired by one
 * {@link DeadlineSweep} per connection); responses are matched by id; when the connection closes every pending
 * request fails.
 * Frames leave in the order {@link #send} was called, also when it is called on the event loop itself (writes
 * always go through the event loop's task queue): a data node's log batches rely on it. The pipeline, in order:
 * {@code tls} (when configured), {@code frameDecoder}, {@code frameEncoder}, {@code flushConsolidation},
 * {@code responses}.
 */
public final class RequestChannel {

    private final Channel channel;
    private final String hostPort;
    private final String expectedId;
    private final ChannelSettings settings;
    private final AtomicLong ids = new AtomicLong(1);
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final DeadlineSweep sweep;
    private volatile String remoteId;

    /** A request waiting for its answer. */
    private static final class Pending {
        private final int opcode;
        private final CompletableFuture<Frame> future = new CompletableFuture<>();
        private final Duration deadline;
        private final long expiresAt;
        private volatile boolean written;
        /** Handed to the pipeline: a close flushes what a flush handler held back, so it may still go out. */
        private volatile boolean handedOver;

        Pending(int opcode, Duration deadline, long expiresAt) {
            this.opcode = opcode;
            this.deadline = deadline;
            this.expiresAt = expiresAt;
        }
    }

    private RequestChannel(Channel channel, String hostPort, String expectedId, ChannelSettings settings) {
        this.channel = channel;
        this.hostPort = hostPort;
        this.expectedId = expectedId;
        this.settings = settings;
        this.sweep = new DeadlineSweep(channel.eventLoop(), this::expireDue);
    }

    /**
     * Connects and performs the handshake.
     *
     * @param settings   how to connect
     * @param host       the node's host
     * @param port       its port
     * @param expectedId the node id expected there, for messages before the handshake ({@code null}: unknown)
     * @param handshake  the first exchange
     * @return the channel once the handshake succeeded; fails with a {@link ChannelException} of kind
     *         {@link ChannelException.Kind#UNREACHABLE} or with the handshake's failure (the channel is closed)
     */
    public static CompletableFuture<RequestChannel> open(ChannelSettings settings, String host, int port,
            String expectedId, Handshake handshake) {
        CompletableFuture<RequestChannel> result = new CompletableFuture<>();
        AtomicReference<RequestChannel> created = new AtomicReference<>();
        String hostPort = host + ":" + port;
        ChannelFuture connect = bootstrap(settings, host, port, hostPort, expectedId, created).connect(host, port);
        connect.addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                String who = expectedId == null ? "node at " + hostPort : "node " + expectedId + " at " + hostPort;
                result.completeExceptionally(new ChannelException(ChannelException.Kind.UNREACHABLE, null, false,
                        "cannot connect to " + who + ": " + describe(f.cause()), f.cause()));
                return;
            }
            created.get().handshake(handshake, result);
        });
        return result;
    }

    private static Bootstrap bootstrap(ChannelSettings settings, String host, int port, String hostPort,
            String expectedId, AtomicReference<RequestChannel> created) {
        int connectMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, settings.connectTimeout().toMillis()));
        return new Bootstrap().group(settings.group()).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectMillis)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        RequestChannel rc = new RequestChannel(ch, hostPort, expectedId, settings);
                        created.set(rc);
                        rc.pipeline(ch.pipeline(), host, port);
                    }
                });
    }

    private void pipeline(ChannelPipeline p, String host, int port) {
        if (settings.tls() != null) {
            p.addLast("tls", settings.tls().newHandler(channel.alloc(), host, port));
        }
        p.addLast("frameDecoder", new FrameDecoder(settings.maxFrameBytes()))
                .addLast("frameEncoder", FrameEncoder.INSTANCE)
                .addLast("flushConsolidation", new FlushConsolidationHandler(256, true))
                .addLast("responses", new ResponseHandler(this));
    }

    private void handshake(Handshake handshake, CompletableFuture<RequestChannel> result) {
        CompletableFuture<String> done;
        try {
            done = handshake.perform(this);
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        done.whenComplete((id, error) -> {
            if (error == null) {
                remoteId = id;
                result.complete(this);
            } else {
                channel.close();
                result.completeExceptionally(error instanceof java.util.concurrent.CompletionException
                        && error.getCause() != null ? error.getCause() : error);
            }
        });
    }

    /**
     * Sends a request; the channel gives it the next request id.
     *
     * @param request  the request frame (its request id is replaced)
     * @param deadline how long to wait for the answer
     * @return the response frame, whatever its status; fails with a {@link ChannelException} turned into the
     *         settings' failure type
     */
    public CompletableFuture<Frame> send(Frame request, Duration deadline) {
        long id = ids.getAndIncrement();
        Pending p = new Pending(request.opcode(), deadline, sweep.after(deadline));
        pending.put(id, p);
        if (!channel.isActive()) {
            fail(id, lost(p, id, failure.get()));
            return p.future;
        }
        sweep.due(p.expiresAt);
        try {
            Frame frame = request.withIdAndBody(id, request.body());
            channel.eventLoop().execute(() -> write(id, p, frame));
        } catch (RejectedExecutionException e) {
            fail(id, lost(p, id, e));
        }
        return p.future;
    }

    private void write(long id, Pending p, Frame frame) {
        // the listener is in place before the write: it runs as the bytes leave, before the channel can be seen
        // closing, so a request that was sent is never taken for unsent
        ChannelPromise promise = channel.newPromise();
        promise.addListener(f -> {
            if (f.isSuccess()) {
                p.written = true;
            } else {
                fail(id, lost(p, id, f.cause()));
            }
        });
        p.handedOver = true;
        channel.writeAndFlush(frame, promise);
    }

    /** Whether a request failed by this side before it closes the channel may yet reach the other side. */
    private static boolean mayGoOut(Pending p) {
        return p.written || p.handedOver;
    }

    private void expire(long id, Pending p) {
        try {
            fail(id, new ChannelException(ChannelException.Kind.DEADLINE, null, p.written, "no answer from "
                    + describe() + " to " + what(p, id) + " within " + p.deadline.toMillis() + " ms", null));
        } catch (RuntimeException e) {
            // the request is no longer pending; one failing conversion of its error must not stop the others' expiry
            p.future.completeExceptionally(e);
        }
    }

    /** Fails the requests whose deadline passed; returns the earliest deadline of the others. */
    private long expireDue(long now) {
        long next = Long.MAX_VALUE;
        for (Map.Entry<Long, Pending> e : pending.entrySet()) {
            Pending p = e.getValue();
            if (p.expiresAt <= now) {
                expire(e.getKey(), p);
            } else {
                next = Math.min(next, p.expiresAt);
            }
        }
        return next;
    }

    void onResponse(Frame frame) {
        Pending p = pending.remove(frame.requestId());
        if (p != null) {
            p.future.complete(frame);
        } else if (frame.requestId() == 0) {
            dismissed(frame);
        }
    }

    private void dismissed(Frame frame) {
        Status status = ResponseHandler.statusOf(frame);
        if (status != null && status != Status.OK) {
            String message = ResponseHandler.messageOf(frame);
            failAll(k -> new ChannelException(ChannelException.Kind.DISMISSED, status, mayGoOut(k), message, null));
            channel.close();
        }
    }

    void onDecodeFailure(DecodeFailure f) {
        String message = "unreadable answer from " + describe() + ": " + f.message();
        if (f.connectionLost()) {
            failAll(p -> new ChannelException(ChannelException.Kind.UNREADABLE, f.status(), mayGoOut(p), message,
                    null));
            channel.close();
        } else {
            Pending p = pending.get(f.requestId());
            if (p != null) {
                // answered, however unreadably: the other side got it
                fail(f.requestId(), new ChannelException(ChannelException.Kind.UNREADABLE, f.status(), true,
                        message, null));
            }
        }
    }

    void onFailure(Throwable cause) {
        failure.compareAndSet(null, cause);
        channel.close();
    }

    void onClosed() {
        for (Long id : pending.keySet()) {
            Pending p = pending.get(id);
            if (p != null) {
                fail(id, lost(p, id, failure.get()));
            }
        }
    }

    private void failAll(java.util.function.Function<Pending, ChannelException> why) {
        for (Long id : pending.keySet()) {
            Pending p = pending.get(id);
            if (p != null) {
                fail(id, why.apply(p));
            }
        }
    }

    private void fail(long id, ChannelException e) {
        Pending p = pending.remove(id);
        if (p != null) {
            p.future.completeExceptionally(settings.failures().apply(e));
        }
    }

    private ChannelException lost(Pending p, long id, Throwable failureCause) {
        Throwable cause = tls(failureCause);
        if (cause instanceof ChannelException broken) {
            ChannelException.Kind kind = p.written ? ChannelException.Kind.LOST : ChannelException.Kind.NOT_SENT;
            return new ChannelException(kind, null, p.written, broken.getMessage() + "; " + what(p, id)
                    + " got no answer", broken);
        }
        String why = cause == null ? "" : " (" + describe(cause) + ")";
        return p.written
                ? new ChannelException(ChannelException.Kind.LOST, null, true, "connection to " + describe()
                        + " closed before the answer to " + what(p, id) + why, cause)
                : new ChannelException(ChannelException.Kind.NOT_SENT, null, false, "connection to " + describe()
                        + " is closed: " + what(p, id) + " was not sent" + why, cause);
    }

    /** A TLS failure, whichever way it arrived (a failed write, an exception, an event), said as one. */
    Throwable tls(Throwable cause) {
        Throwable ssl = cause instanceof SSLException ? cause
                : cause != null && cause.getCause() instanceof SSLException s ? s : null;
        return ssl == null ? cause : new ChannelException(ChannelException.Kind.LOST, null, false,
                "TLS handshake with " + describe() + " failed: " + describe(ssl), ssl);
    }

    private String what(Pending p, long id) {
        return p.opcode == org.autodisk.core.protocol.Opcode.HELLO.code() ? "the handshake"
                : settings.opNames().apply(p.opcode) + " #" + id;
    }

    static String describe(Throwable t) {
        Throwable cause = t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                ? t.getCause() : t;
        String m = cause.getMessage();
        return m == null || m.isBlank() ? cause.getClass().getSimpleName() : m;
    }

    /**
     * Tells whether the connection can carry requests.
     *
     * @return true while it is open
     */
    public boolean isActive() {
        return channel.isActive();
    }

    /** Closes the connection; pending requests fail. */
    public void close() {
        channel.close();
    }

    /**
     * Returns the id the other node gave in the handshake.
     *
     * @return the node id, or {@code null} before the handshake succeeded
     */
    public String remoteId() {
        return remoteId;
    }

    /**
     * Returns the address connected to.
     *
     * @return host:port
     */
    public String hostPort() {
        return hostPort;
    }

    /**
     * Returns the Netty channel, for tests.
     *
     * @return the channel
     */
    public Channel channel() {
        return channel;
    }

    /**
     * Describes the other end for messages.
     *
     * @return e.g. {@code node d2 at 10.0.0.2:7400}, or {@code node at 10.0.0.2:7400} before the handshake
     */
    public String describe() {
        String id = remoteId != null ? remoteId : expectedId;
        return id == null ? "node at " + hostPort : "node " + id + " at " + hostPort;
    }

    @Override
    public String toString() {
        return describe();
    }
}
