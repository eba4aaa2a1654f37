package org.autodisk.node.server;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.util.function.Predicate;
import org.autodisk.node.ops.RequestDispatcher;
import org.autodisk.node.wire.NodeAuth;

/**
 * How a node serves.
 *
 * @param nodeId        this node's id
 * @param bind          address to bind
 * @param group         event loops for accepting and serving connections
 * @param maxFrameBytes largest accepted frame
 * @param dispatcher    where requests go
 * @param tls           the server-side TLS context, or {@code null} for plain TCP
 * @param auth          checks the proof of connecting nodes, or {@code null} when the node has no cluster secret
 *                      (a one-node cluster: every node handshake is refused)
 * @param members       whether an id is one of the cluster's other nodes, the only ones that may connect as nodes
 */
public record ServerSettings(String nodeId, InetSocketAddress bind, EventLoopGroup group, int maxFrameBytes,
        RequestDispatcher dispatcher, SslContext tls, NodeAuth auth, Predicate<String> members) {
}
