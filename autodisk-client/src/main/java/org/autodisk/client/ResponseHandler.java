package org.autodisk.client;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.autodisk.core.protocol.DecodeFailure;
import org.autodisk.core.protocol.Frame;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@code responses} handler: hands decoded frames and decode failures to the {@link Connection}. */
final class ResponseHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ResponseHandler.class);

    private final Connection connection;

    ResponseHandler(Connection connection) {
        this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Frame frame) {
            connection.onFrame(frame);
        } else if (msg instanceof DecodeFailure failure) {
            connection.onDecodeFailure(failure);
        } else {
            LOG.debug("ignoring unexpected {} from {}", msg.getClass().getSimpleName(), connection);
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        LOG.debug("connection to {} closed", connection);
        connection.onClosed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("closing the connection to {}: {}", connection, cause.toString());
        ctx.close();
    }
}
