package org.autodisk.node.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.autodisk.core.net.WriteBurst;
import org.autodisk.core.protocol.DecodeFailure;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.ops.Caller;
import org.autodisk.node.ops.RequestDispatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands decoded request frames to the dispatcher, with who sent them, and answers framing failures: an oversized
 * frame, or a node-to-node operation on a client connection, gets an error and the connection goes on; garbage
 * gets an error and the connection is closed.
 */
final class RequestInboundHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestInboundHandler.class);

    private final String nodeId;
    private final RequestDispatcher dispatcher;
    private final Caller caller;
    private final String peerId;

    RequestInboundHandler(String nodeId, RequestDispatcher dispatcher, Caller caller, String peerId) {
        this.nodeId = nodeId;
        this.dispatcher = dispatcher;
        this.caller = caller;
        this.peerId = peerId;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel ch = ctx.channel();
        if (msg instanceof Frame frame) {
            dispatcher.accept(frame, caller, reply -> WriteBurst.writeAndFlush(ch, reply));
        } else if (msg instanceof DecodeFailure failure) {
            if (failure.status() == Status.NOT_PERMITTED) {
                LOG.info("{}: refused from {} '{}' at {}: {}", nodeId, caller, peerId, ch.remoteAddress(),
                        failure.message());
            } else {
                LOG.info("{}: bad frame from {}: {}", nodeId, ch.remoteAddress(), failure.message());
            }
            Frame reply = new Frame(Frame.PROTOCOL_VERSION, failure.opcode(), Frame.FLAG_RESPONSE, 0,
                    failure.requestId(), Responses.error(failure.status(), failure.message()));
            var written = ch.writeAndFlush(reply);
            if (failure.connectionLost()) {
                written.addListener(ChannelFutureListener.CLOSE);
            }
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("{}: connection {} failed: {}", nodeId, ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
