package org.autodisk.node.peer;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Function;
import org.autodisk.core.net.ChannelSettings;
import org.autodisk.node.wire.NodeAuth;
import org.autodisk.node.wire.PeerOp;

/** Creates peer channels. */
public final class PeerChannels {

    /** Peers are trusted once they proved membership, so the decoder's limit only guards against nonsense lengths. */
    private static final int MAX_PEER_FRAME_BYTES = Integer.MAX_VALUE - 16;

    private PeerChannels() {
    }

    /**
     * How a node connects to its peers.
     *
     * @param selfId         this node's id, sent in the handshake
     * @param addresses      peer id to address ({@code null}: not a member)
     * @param group          the node's event loops
     * @param tls            the TLS context for connecting, or {@code null} for plain TCP
     * @param auth           proves membership and checks the peer's proof
     * @param connectTimeout connect (and handshake) timeout
     * @param requestTimeout how long to wait for each response
     */
    public record Settings(String selfId, Function<String, InetSocketAddress> addresses, EventLoopGroup group,
            SslContext tls, NodeAuth auth, Duration connectTimeout, Duration requestTimeout) {
    }

    /**
     * Creates a TCP (or TLS) peer channel.
     *
     * @param s how to connect
     * @return the channel
     */
    public static PeerChannel netty(Settings s) {
        return new NettyPeerChannel(s.addresses(), peerId -> new ChannelSettings(s.group(), s.tls(),
                MAX_PEER_FRAME_BYTES, s.connectTimeout(), PeerOp::describe, e -> PeerConnection.toPeer(peerId, e)),
                new NodeHandshake(s.selfId(), s.auth(), s.connectTimeout()), s.requestTimeout());
    }
}
