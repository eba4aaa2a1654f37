package org.autodisk.node.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.net.InetSocketAddress;
import org.autodisk.core.protocol.FrameDecoder;
import org.autodisk.core.protocol.FrameEncoder;

/**
 * The node's listening socket. Each connection's pipeline, in order: {@code tls} (with {@code tls.enabled}),
 * {@code frameDecoder}, {@code frameEncoder}, {@code flushConsolidation}, {@code handshake} - replaced by
 * {@code requests} once the HELLO (and, for a node, its proof of membership) is accepted.
 */
public final class NodeServer implements AutoCloseable {

    private final Channel serverChannel;
    private final ChannelGroup connections;

    private NodeServer(Channel serverChannel, ChannelGroup connections) {
        this.serverChannel = serverChannel;
        this.connections = connections;
    }

    /**
     * Binds and starts serving.
     *
     * @param s how to serve
     * @return the running server
     * @throws InterruptedException if interrupted while binding
     */
    public static NodeServer start(ServerSettings s) throws InterruptedException {
        ChannelGroup connections = new DefaultChannelGroup(s.nodeId() + "-connections", s.group().next());
        ServerBootstrap b = new ServerBootstrap().group(s.group()).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.add(ch);
                        if (s.tls() != null) {
                            ch.pipeline().addLast("tls", s.tls().newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast("frameDecoder", new FrameDecoder(s.maxFrameBytes()))
                                .addLast("frameEncoder", FrameEncoder.INSTANCE)
                                .addLast("flushConsolidation", new FlushConsolidationHandler(256, true))
                                .addLast("handshake", new HandshakeHandler(s));
                    }
                });
        InetSocketAddress resolved = new InetSocketAddress(s.bind().getHostString(), s.bind().getPort());
        return new NodeServer(b.bind(resolved).sync().channel(), connections);
    }

    /**
     * Returns the bound address.
     *
     * @return host and actual port
     */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Stops accepting connections; open connections stay until {@link #closeConnections()}. */
    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
    }

    /** Closes every client and peer connection this server accepted, so their other ends see it at once. */
    public void closeConnections() {
        connections.close().awaitUninterruptibly();
    }

    /** Stops accepting (if not yet) and closes every connection: the release of a started server. */
    public void stop() {
        close();
        closeConnections();
    }
}
