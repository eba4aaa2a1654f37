package org.autodisk.core.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import org.autodisk.core.protocol.DecodeFailure;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@code responses} handler of a {@link RequestChannel}: hands it responses, decode failures and closing. */
final class ResponseHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ResponseHandler.class);

    private final RequestChannel owner;

    ResponseHandler(RequestChannel owner) {
        this.owner = owner;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Frame frame && frame.isResponse()) {
            owner.onResponse(frame);
        } else if (msg instanceof Frame frame) {
            LOG.warn("{} sent a request ({}) on a connection that only carries answers; closing it", owner, frame);
            ctx.close();
        } else if (msg instanceof DecodeFailure failure) {
            owner.onDecodeFailure(failure);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            owner.onFailure(owner.tls(done.cause()));
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        owner.onClosed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection to {} failed: {}", owner, cause.toString());
        owner.onFailure(owner.tls(cause));
    }

    static Status statusOf(Frame frame) {
        try {
            return Responses.status(frame.body());
        } catch (ProtocolException e) {
            return null;
        }
    }

    static String messageOf(Frame frame) {
        try {
            return Responses.errorMessage(frame.body());
        } catch (ProtocolException e) {
            return "(unreadable message)";
        }
    }
}
