package org.autodisk.node.peer;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.autodisk.core.net.ChannelSettings;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;

/** {@link PeerChannel} over TCP (or TLS): one lazily opened, multiplexed connection per peer. */
final class NettyPeerChannel implements PeerChannel {

    private final Function<String, InetSocketAddress> addresses;
    private final Function<String, ChannelSettings> settings;
    private final NodeHandshake handshake;
    private final java.time.Duration requestTimeout;
    private final Map<String, PeerConnection> connections = new ConcurrentHashMap<>();

    NettyPeerChannel(Function<String, InetSocketAddress> addresses, Function<String, ChannelSettings> settings,
            NodeHandshake handshake,
            java.time.Duration requestTimeout) {
        this.addresses = addresses;
        this.settings = settings;
        this.handshake = handshake;
        this.requestTimeout = requestTimeout;
    }

    @Override
    public CompletableFuture<Frame> send(String nodeId, Frame request) {
        InetSocketAddress address = addresses.apply(nodeId);
        if (address == null) {
            return CompletableFuture.failedFuture(new PeerException(Status.NODE_UNAVAILABLE,
                    "node " + nodeId + " is not a member of this cluster"));
        }
        return connections.computeIfAbsent(nodeId, id -> new PeerConnection(id, address, settings.apply(id),
                handshake, requestTimeout)).send(request);
    }

    @Override
    public void close() {
        connections.values().forEach(PeerConnection::close);
        connections.clear();
    }
}
