package org.autodisk.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.FrameDecoder;
import org.autodisk.core.protocol.FrameEncoder;
import org.autodisk.core.protocol.Opcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request {@link RequestChannel} fails is said not written only if it cannot reach the other side: one handed to
 * the pipeline when an unreadable answer closes the connection is flushed by that close (a flush handler held it
 * back), so it must be said written (a caller would otherwise send a write again that the other side carried out).
 */
class RequestChannelWrittenTest {

    private EventLoopGroup group;
    private Channel server;
    private final CompletableFuture<Frame> received = new CompletableFuture<>();

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new FrameDecoder(1 << 20), FrameEncoder.INSTANCE,
                                new SimpleChannelInboundHandler<Frame>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, Frame f) {
                                        received.complete(f);
                                    }
                                });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    @AfterEach
    void stop() throws Exception {
        server.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void aRequestFailedByAnUnreadableAnswerWhileItsFlushWasHeldBackIsSaidWritten() throws Exception {
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        ChannelSettings settings = new ChannelSettings(group, null, 1 << 20, Duration.ofSeconds(5), op -> "op" + op);
        RequestChannel rc = RequestChannel.open(settings, "127.0.0.1", port, "srv",
                c -> CompletableFuture.completedFuture("srv")).get(10, TimeUnit.SECONDS);
        AtomicReference<CompletableFuture<Frame>> answer = new AtomicReference<>();
        Channel ch = rc.channel();
        ch.eventLoop().submit(() -> {
            // the write task is queued, and the flush it asks for is queued after it (consolidated)
            answer.set(rc.send(Frame.request(Opcode.SEARCH, 0, new byte[] {42}), Duration.ofSeconds(5)));
            // between the two, an answer shorter than a frame header arrives: the connection is given up
            ch.eventLoop().execute(() -> ch.pipeline().fireChannelRead(Unpooled.wrappedBuffer(new byte[] {0, 0, 0,
                    1})));
        }).sync();
        ChannelException failure = null;
        try {
            answer.get().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            failure = (ChannelException) e.getCause();
        }
        assertThat(failure).isNotNull();
        assertThat(failure.kind()).isEqualTo(ChannelException.Kind.UNREADABLE);
        assertThat(received.get(5, TimeUnit.SECONDS).body()).as("the close flushed it").containsExactly(42);
        assertThat(failure.written()).as("it reached the other side").isTrue();
    }
}
