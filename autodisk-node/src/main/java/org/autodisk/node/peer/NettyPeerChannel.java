package org.autodisk.node.peer;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;

/** {@link PeerChannel} over TCP: one lazily opened, multiplexed connection per peer. */
final class NettyPeerChannel implements PeerChannel {

    private final String selfId;
    private final Map<String, InetSocketAddress> addresses;
    private final Bootstrap template;
    private final int connectTimeoutMs;
    private final long requestTimeoutMs;
    private final Map<String, PeerConnection> connections = new ConcurrentHashMap<>();

    NettyPeerChannel(String selfId, Map<String, InetSocketAddress> addresses, EventLoopGroup group,
            int connectTimeoutMs, long requestTimeoutMs) {
        this.selfId = selfId;
        this.addresses = Map.copyOf(addresses);
        this.template = new Bootstrap().group(group).option(ChannelOption.TCP_NODELAY, true);
        this.connectTimeoutMs = connectTimeoutMs;
        this.requestTimeoutMs = requestTimeoutMs;
    }

    @Override
    public CompletableFuture<Frame> send(String nodeId, Frame request) {
        InetSocketAddress address = addresses.get(nodeId);
        if (address == null) {
            return CompletableFuture.failedFuture(new PeerException(Status.NODE_UNAVAILABLE,
                    "node " + nodeId + " is not a member of this cluster"));
        }
        return connections.computeIfAbsent(nodeId, id -> new PeerConnection(selfId, id, address, template,
                connectTimeoutMs, requestTimeoutMs)).send(request);
    }

    @Override
    public void close() {
        connections.values().forEach(PeerConnection::close);
        connections.clear();
    }
}
