package org.autodisk.core.net;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * How {@link RequestChannel}s are opened.
 *
 * @param group          the event loops connections run on
 * @param tls            the client-side TLS context, or {@code null} for plain TCP
 * @param maxFrameBytes  the largest response frame accepted
 * @param connectTimeout how long a connect may take
 * @param opNames        names opcodes in messages
 * @param failures       turns a channel's failure into the exception its requests fail with (the identity, or
 *                       the caller's own error type), so that no further stage is needed on every request
 */
public record ChannelSettings(EventLoopGroup group, SslContext tls, int maxFrameBytes, Duration connectTimeout,
        IntFunction<String> opNames, Function<ChannelException, ? extends RuntimeException> failures) {

    /**
     * Settings whose requests fail with the {@link ChannelException} itself.
     *
     * @param group          the event loops connections run on
     * @param tls            the client-side TLS context, or {@code null} for plain TCP
     * @param maxFrameBytes  the largest response frame accepted
     * @param connectTimeout how long a connect may take
     * @param opNames        names opcodes in messages
     */
    public ChannelSettings(EventLoopGroup group, SslContext tls, int maxFrameBytes, Duration connectTimeout,
            IntFunction<String> opNames) {
        this(group, tls, maxFrameBytes, connectTimeout, opNames, e -> e);
    }
}
