package org.autodisk.core.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.bootstrap.ServerBootstrap;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.FrameDecoder;
import org.autodisk.core.protocol.FrameEncoder;
import org.autodisk.core.protocol.Opcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deadlines of {@link RequestChannel} requests against a loopback server that answers a request whose body starts
 * with 1 and never answers the others: each unanswered request fails with DEADLINE, not before its deadline, also
 * when a request with a shorter deadline follows longer ones and when several expire one after the other; answered
 * requests are never failed afterwards.
 */
class RequestChannelDeadlineTest {

    private static final byte[] ANSWER = {1};
    private static final byte[] SILENCE = {0};

    private EventLoopGroup group;
    private Channel server;
    private RequestChannel channel;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new FrameDecoder(1 << 20), FrameEncoder.INSTANCE, new Answering());
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        ChannelSettings settings = new ChannelSettings(group, null, 1 << 20, Duration.ofSeconds(5), op -> "op" + op);
        channel = RequestChannel.open(settings, "127.0.0.1", port, "srv",
                c -> CompletableFuture.completedFuture("srv")).get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        if (channel != null) {
            channel.close();
        }
        server.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void anUnansweredRequestFailsWithDeadlineNotBeforeIt() {
        long sent = System.nanoTime();
        CompletableFuture<Frame> f = send(SILENCE, Duration.ofMillis(200));
        assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ChannelException.class)
                .satisfies(e -> assertThat(((ChannelException) e).kind()).isEqualTo(ChannelException.Kind.DEADLINE))
                .hasMessageContaining("within 200 ms");
        assertThat(System.nanoTime() - sent).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
    }

    @Test
    void aShortDeadlineAfterLongOnesExpiresFirst() throws Exception {
        CompletableFuture<Frame> longOne = send(SILENCE, Duration.ofSeconds(60));
        CompletableFuture<Frame> shortOne = send(SILENCE, Duration.ofMillis(100));
        assertThatThrownBy(() -> shortOne.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(ChannelException.class);
        assertThat(longOne).isNotDone();
    }

    @Test
    void requestsExpiringOneAfterTheOtherAllFailAndAnsweredOnesStayAnswered() throws Exception {
        List<CompletableFuture<Frame>> silent = new ArrayList<>();
        List<CompletableFuture<Frame>> answered = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            answered.add(send(ANSWER, Duration.ofMillis(50L * i)));
            silent.add(send(SILENCE, Duration.ofMillis(50L * i)));
        }
        for (CompletableFuture<Frame> f : silent) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(ChannelException.class);
        }
        for (CompletableFuture<Frame> f : answered) {
            assertThat(f.get(10, TimeUnit.SECONDS).body()).containsExactly(ANSWER);
        }
    }

    private CompletableFuture<Frame> send(byte[] body, Duration deadline) {
        return channel.send(Frame.request(Opcode.SEARCH, 0, body), deadline);
    }

    /** Answers a request whose body starts with 1 by echoing its body; never answers the others. */
    private static final class Answering extends SimpleChannelInboundHandler<Object> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Frame f && f.body().length > 0 && f.body()[0] == 1) {
                ctx.writeAndFlush(f.response(f.body()));
            }
        }
    }
}
