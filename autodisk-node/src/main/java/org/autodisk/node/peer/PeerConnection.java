package org.autodisk.node.peer;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.core.protocol.DecodeFailure;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.FrameDecoder;
import org.autodisk.core.protocol.FrameEncoder;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One multiplexed connection from this node to one peer: requests are matched to responses by id. Connects
 * lazily, performs the HELLO handshake, and reconnects on the next send after the connection was lost.
 */
final class PeerConnection {

    private static final Logger LOG = LoggerFactory.getLogger(PeerConnection.class);

    private final String selfId;
    private final String peerId;
    private final InetSocketAddress address;
    private final Bootstrap bootstrap;
    private final long requestTimeoutMs;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<Frame>> pending = new ConcurrentHashMap<>();
    private CompletableFuture<Channel> connection;

    PeerConnection(String selfId, String peerId, InetSocketAddress address, Bootstrap template,
            int connectTimeoutMs, long requestTimeoutMs) {
        this.selfId = selfId;
        this.peerId = peerId;
        this.address = address;
        this.requestTimeoutMs = requestTimeoutMs;
        this.bootstrap = template.clone().option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMs)
                .channel(NioSocketChannel.class).handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("frameDecoder", new FrameDecoder(Integer.MAX_VALUE - 16))
                                .addLast("frameEncoder", FrameEncoder.INSTANCE)
                                .addLast("flushConsolidation", new FlushConsolidationHandler(256, true))
                                .addLast("responses", new ResponseHandler());
                    }
                });
    }

    CompletableFuture<Frame> send(Frame request) {
        return channel().thenCompose(ch -> write(ch, request));
    }

    private synchronized CompletableFuture<Channel> channel() {
        if (connection == null || connection.isCompletedExceptionally()
                || connection.isDone() && !connection.join().isActive()) {
            connection = connect();
        }
        return connection;
    }

    private CompletableFuture<Channel> connect() {
        CompletableFuture<Channel> ready = new CompletableFuture<>();
        ChannelFuture cf = bootstrap.connect(new InetSocketAddress(address.getHostString(), address.getPort()));
        cf.addListener(f -> {
            if (!f.isSuccess()) {
                ready.completeExceptionally(unavailable("cannot connect: " + f.cause().getMessage()));
                return;
            }
            Frame hello = Frame.request(Opcode.HELLO, ids.incrementAndGet(),
                    Hello.of(Hello.PeerKind.NODE, selfId).encode());
            write(cf.channel(), hello).whenComplete((resp, err) -> handshakeDone(cf.channel(), ready, resp, err));
        });
        return ready;
    }

    private void handshakeDone(Channel ch, CompletableFuture<Channel> ready, Frame resp, Throwable err) {
        if (err != null) {
            ready.completeExceptionally(err);
        } else if (Responses.status(resp.body()) != Status.OK) {
            ch.close();
            ready.completeExceptionally(unavailable("handshake refused: " + Responses.errorMessage(resp.body())));
        } else {
            LOG.debug("{}: connected to peer {} at {}", selfId, peerId, address);
            ready.complete(ch);
        }
    }

    private CompletableFuture<Frame> write(Channel ch, Frame request) {
        long id = ids.incrementAndGet();
        CompletableFuture<Frame> response = new CompletableFuture<>();
        pending.put(id, response);
        var timeout = ch.eventLoop().schedule(() -> timedOut(id), requestTimeoutMs, TimeUnit.MILLISECONDS);
        response.whenComplete((r, e) -> timeout.cancel(false));
        Frame frame = request.withIdAndBody(id, request.body());
        // Always through the event loop's task queue, also from the event loop itself: frames then leave in the
        // order send() was called, which keeps a data node's log batches in LSN order.
        ch.eventLoop().execute(() -> ch.writeAndFlush(frame).addListener(f -> {
            if (!f.isSuccess()) {
                fail(id, unavailable("write failed: " + f.cause().getMessage()));
            }
        }));
        return response;
    }

    private void timedOut(long id) {
        fail(id, new PeerException(Status.TIMEOUT, "peer " + peerId + " (" + hostPort() + ") did not answer within "
                + requestTimeoutMs + " ms (forward.timeout-ms)"));
    }

    private void fail(long id, PeerException e) {
        CompletableFuture<Frame> f = pending.remove(id);
        if (f != null) {
            f.completeExceptionally(e);
        }
    }

    private PeerException unavailable(String why) {
        return new PeerException(Status.NODE_UNAVAILABLE, "peer " + peerId + " (" + hostPort() + ") is unavailable: "
                + why);
    }

    private String hostPort() {
        return address.getHostString() + ":" + address.getPort();
    }

    synchronized void close() {
        if (connection != null && connection.isDone() && !connection.isCompletedExceptionally()) {
            connection.join().close();
        }
    }

    private final class ResponseHandler extends SimpleChannelInboundHandler<Object> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Frame frame && !frame.isResponse()) {
                LOG.warn("{}: peer {} sent a request frame on a response connection; closing it", selfId, peerId);
                ctx.close();
            } else if (msg instanceof Frame frame) {
                CompletableFuture<Frame> f = pending.remove(frame.requestId());
                if (f != null) {
                    f.complete(frame);
                }
            } else if (msg instanceof DecodeFailure failure) {
                LOG.warn("{}: bad frame from peer {}: {}", selfId, peerId, failure.message());
                ctx.close();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            for (Long id : pending.keySet()) {
                fail(id, unavailable("connection closed"));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("{}: connection to peer {} failed: {}", selfId, peerId, cause.toString());
            ctx.close();
        }
    }
}
