package org.autodisk.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.autodisk.core.protocol.FrameDecoder;
import org.autodisk.core.protocol.FrameEncoder;

/** Opens connections: owns the client's single I/O thread and builds each channel's pipeline. */
final class Connector implements AutoCloseable {

    /** Responses come from trusted nodes, so the decoder's limit only guards against nonsense lengths. */
    static final int MAX_RESPONSE_FRAME_BYTES = 1 << 30;

    private final ClientSettings settings;
    private final EventLoopGroup group;
    private final AtomicLong requestIds = new AtomicLong(1);

    Connector(ClientSettings settings) {
        this.settings = settings;
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("autodisk-client", true),
                NioIoHandler.newFactory());
    }

    /**
     * Connects to a seed and performs the handshake.
     *
     * @param seed the node address
     * @return the connection after a successful handshake; fails with {@link NodeUnavailableException} if the
     *         node cannot be reached, or with the handshake's failure (the channel is then closed)
     */
    CompletableFuture<Connection> open(Seed seed) {
        CompletableFuture<Connection> result = new CompletableFuture<>();
        AtomicReference<Connection> created = new AtomicReference<>();
        ChannelFuture connect = bootstrap(seed, created).connect(seed.host(), seed.port());
        connect.addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                result.completeExceptionally(new NodeUnavailableException("cannot connect to " + seed + ": "
                        + Errors.describe(f.cause()), null, null, f.cause()));
                return;
            }
            Connection c = created.get();
            c.handshake(settings.clientId(), settings.connectTimeout()).whenComplete((nodeId, error) -> {
                if (error == null) {
                    result.complete(c);
                } else {
                    c.close();
                    Throwable cause = Errors.unwrap(error);
                    result.completeExceptionally(cause instanceof ConnectionLost lost ? lost.toPublic() : cause);
                }
            });
        });
        return result;
    }

    private Bootstrap bootstrap(Seed seed, AtomicReference<Connection> created) {
        return new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis())
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        Connection connection = new Connection(ch, seed, requestIds);
                        created.set(connection);
                        ch.pipeline()
                                .addLast("frameDecoder", new FrameDecoder(MAX_RESPONSE_FRAME_BYTES))
                                .addLast("frameEncoder", FrameEncoder.INSTANCE)
                                .addLast("flushConsolidation", new FlushConsolidationHandler(256, true))
                                .addLast("responses", new ResponseHandler(connection));
                    }
                });
    }

    private int connectTimeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, settings.connectTimeout().toMillis()));
    }

    /**
     * Tells whether the calling thread is the client's I/O thread, where blocking would deadlock.
     *
     * @return true on the I/O thread
     */
    boolean inEventLoop() {
        for (EventExecutor e : group) {
            if (e.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    /** Stops the I/O thread; waits for it unless called from it. */
    @Override
    public void close() {
        boolean wait = !inEventLoop();
        var terminated = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        if (wait) {
            terminated.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
