package org.autodisk.node.server;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.DecodeFailure;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expects HELLO as the first frame. A peer of another protocol version, or one that sends anything else
 * first, gets an error naming the problem and is disconnected; after a good HELLO this handler leaves the
 * pipeline.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(HandshakeHandler.class);

    private final String nodeId;

    HandshakeHandler(String nodeId) {
        this.nodeId = nodeId;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof DecodeFailure failure) {
            refuse(ctx, failure.requestId(), failure.opcode(), failure.status(), failure.message());
            return;
        }
        Frame frame = (Frame) msg;
        if (frame.op() != Opcode.HELLO) {
            refuse(ctx, frame.requestId(), frame.opcode(), Status.HANDSHAKE_REQUIRED,
                    "the first frame on a connection must be HELLO, got opcode " + frame.opcode());
            return;
        }
        try {
            accept(ctx, frame, Hello.decode(frame.body()));
        } catch (ProtocolException e) {
            refuse(ctx, frame.requestId(), frame.opcode(), e.status(), e.getMessage());
        }
    }

    private void accept(ChannelHandlerContext ctx, Frame frame, Hello hello) {
        if (hello.version() != Frame.PROTOCOL_VERSION || frame.version() != Frame.PROTOCOL_VERSION) {
            refuse(ctx, frame.requestId(), frame.opcode(), Status.UNSUPPORTED_VERSION, hello.kind().name()
                    .toLowerCase(java.util.Locale.ROOT) + " '" + hello.peerId() + "' speaks protocol version "
                    + hello.version() + "; node " + nodeId + " speaks version " + Frame.PROTOCOL_VERSION);
            return;
        }
        LOG.debug("{}: {} {} connected from {}", nodeId, hello.kind(), hello.peerId(), ctx.channel().remoteAddress());
        byte[] body = new BodyWriter(16).u8(Status.OK.code()).string(nodeId).toBytes();
        ctx.writeAndFlush(frame.response(body));
        ctx.pipeline().remove(this);
    }

    private void refuse(ChannelHandlerContext ctx, long requestId, int opcode, Status status, String message) {
        LOG.info("{}: refusing connection from {}: {}", nodeId, ctx.channel().remoteAddress(), message);
        Frame reply = new Frame(Frame.PROTOCOL_VERSION, opcode, Frame.FLAG_RESPONSE, 0, requestId,
                Responses.error(status, message));
        ctx.writeAndFlush(reply).addListener(ChannelFutureListener.CLOSE);
    }
}
