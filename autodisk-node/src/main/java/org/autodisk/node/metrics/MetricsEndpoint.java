package org.autodisk.node.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's Prometheus endpoint: {@code GET /metrics} answers every meter of the node's registry in Prometheus's
 * text format ({@code metrics.http-port}). Served on the node's own event loops; a scrape reads in-memory meters
 * only.
 */
public final class MetricsEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    private static final int MAX_REQUEST_BYTES = 16 * 1024;

    private final String nodeId;
    private final Channel channel;

    private MetricsEndpoint(String nodeId, Channel channel) {
        this.nodeId = nodeId;
        this.channel = channel;
    }

    /**
     * Binds the endpoint.
     *
     * @param nodeId   the node, for logs
     * @param address  where to listen
     * @param group    the event loops to serve on
     * @param registry the registry to scrape
     * @return the running endpoint
     * @throws InterruptedException if interrupted while binding
     * @throws IllegalStateException naming the address if it cannot be bound
     */
    public static MetricsEndpoint start(String nodeId, InetSocketAddress address, EventLoopGroup group,
            PrometheusMeterRegistry registry) throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("http-codec", new HttpServerCodec())
                                .addLast("http-aggregator", new HttpObjectAggregator(MAX_REQUEST_BYTES))
                                .addLast("scrape", new ScrapeHandler(registry));
                    }
                });
        var bound = b.bind(address).await();
        if (!bound.isSuccess()) {
            throw new IllegalStateException("node " + nodeId + ": cannot serve metrics on " + address
                    + " (metrics.http-port): " + bound.cause().getMessage(), bound.cause());
        }
        LOG.info("{}: metrics for Prometheus on http://{}/metrics", nodeId, hostPort(address));
        return new MetricsEndpoint(nodeId, bound.channel());
    }

    private static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /**
     * Returns the bound address (the real port when 0 was asked).
     *
     * @return the address
     */
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** Stops accepting scrapes. */
    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        LOG.debug("{}: metrics endpoint closed", nodeId);
    }
}
