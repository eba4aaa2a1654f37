package org.autodisk.node.peer;

import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.Map;

/** Creates peer channels. */
public final class PeerChannels {

    private PeerChannels() {
    }

    /**
     * Creates a TCP peer channel.
     *
     * @param selfId           this node's id, sent in the handshake
     * @param addresses        peer id to address
     * @param group            the node's event loops
     * @param connectTimeoutMs connect timeout
     * @param requestTimeoutMs how long to wait for each response
     * @return the channel
     */
    public static PeerChannel netty(String selfId, Map<String, InetSocketAddress> addresses, EventLoopGroup group,
            int connectTimeoutMs, long requestTimeoutMs) {
        return new NettyPeerChannel(selfId, addresses, group, connectTimeoutMs, requestTimeoutMs);
    }
}
