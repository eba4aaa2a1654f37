package org.autodisk.node.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;

/** Answers {@code GET /metrics} with a scrape of the registry; anything else with 404 or 405. */
final class ScrapeHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;

    ScrapeHandler(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        String path = new QueryStringDecoder(request.uri()).path();
        FullHttpResponse response;
        if (!request.decoderResult().isSuccess()) {
            response = text(HttpResponseStatus.BAD_REQUEST, "malformed HTTP request\n");
        } else if (!"/metrics".equals(path)) {
            response = text(HttpResponseStatus.NOT_FOUND, "no " + path + " here; metrics are at /metrics\n");
        } else if (!HttpMethod.GET.equals(request.method()) && !HttpMethod.HEAD.equals(request.method())) {
            response = text(HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET /metrics\n");
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        } else {
            response = text(HttpResponseStatus.OK, registry.scrape());
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request) && request.decoderResult().isSuccess();
        HttpUtil.setKeepAlive(response, keepAlive);
        var written = ctx.writeAndFlush(response);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static FullHttpResponse text(HttpResponseStatus status, String body) {
        ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        HttpUtil.setContentLength(r, content.readableBytes());
        return r;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
