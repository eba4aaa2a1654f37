package org.autodisk.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link WriteBurst} over Netty's in-VM transport: a burst's writes arrive in order after one flush. */
class WriteBurstTest {

    private EventLoopGroup group;
    private Channel server;
    private Channel client;
    private final List<Object> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger flushes = new AtomicInteger();
    private volatile CountDownLatch arrived = new CountDownLatch(0);

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
        LocalAddress address = new LocalAddress("write-burst-" + System.nanoTime());
        server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                .childHandler(new ChannelInitializer<LocalChannel>() {
                    @Override
                    protected void initChannel(LocalChannel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                received.add(msg);
                                arrived.countDown();
                            }
                        });
                    }
                }).bind(address).sync().channel();
        client = new Bootstrap().group(group).channel(LocalChannel.class)
                .handler(new ChannelOutboundHandlerAdapter() {
                    @Override
                    public void flush(ChannelHandlerContext ctx) {
                        flushes.incrementAndGet();
                        ctx.flush();
                    }
                }).connect(address).sync().channel();
    }

    @AfterEach
    void stop() throws Exception {
        client.close().sync();
        server.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void aBurstsWritesArriveInOrderAfterOneFlush() throws InterruptedException {
        arrived = new CountDownLatch(3);
        WriteBurst.run(() -> {
            WriteBurst.writeAndFlush(client, "a");
            WriteBurst.run(() -> WriteBurst.writeAndFlush(client, "b")); // a nested burst is part of this one
            WriteBurst.writeAndFlush(client, "c");
        });
        assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(received).containsExactly("a", "b", "c");
        assertThat(flushes).hasValue(1);
    }

    @Test
    void writesOutsideABurstLeaveOneByOne() throws InterruptedException {
        arrived = new CountDownLatch(2);
        WriteBurst.writeAndFlush(client, "a");
        WriteBurst.writeAndFlush(client, "b");
        assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(received).containsExactly("a", "b");
        assertThat(flushes).hasValue(2);
    }
}
