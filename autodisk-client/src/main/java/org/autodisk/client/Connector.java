package org.autodisk.client;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.net.ChannelSettings;
import org.autodisk.core.net.RequestChannel;
import org.autodisk.core.protocol.Opcode;

/** Opens connections: owns the client's single I/O thread and the settings of every channel. */
final class Connector implements AutoCloseable {

    /** Responses come from trusted nodes, so the decoder's limit only guards against nonsense lengths. */
    static final int MAX_RESPONSE_FRAME_BYTES = 1 << 30;

    private final ClientSettings settings;
    private final EventLoopGroup group;
    private final ChannelSettings channels;

    Connector(ClientSettings settings) {
        this.settings = settings;
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("autodisk-client", true),
                NioIoHandler.newFactory());
        this.channels = new ChannelSettings(group, settings.tls(), MAX_RESPONSE_FRAME_BYTES,
                settings.connectTimeout(), Opcode::describe);
    }

    /**
     * Where this client reaches a member: its address as the cluster reports it, through the client's address
     * translator ({@link AutoDiskClient.Builder#addressTranslator}).
     *
     * @param reported the member's address in the cluster's metadata
     * @return the address to connect to
     * @throws IllegalArgumentException if the translated address is not {@code host:port}
     */
    Seed member(String reported) {
        String address = settings.addresses().apply(reported);
        if (address == null) {
            throw new IllegalArgumentException("the address translator gave no address for " + reported);
        }
        return Seed.parse(address);
    }

    /**
     * Connects to a seed and performs the handshake.
     *
     * @param seed the node address
     * @return the connection after a successful handshake; fails with {@link NodeUnavailableException} if the
     *         node cannot be reached, or with the handshake's failure (the channel is then closed)
     */
    CompletableFuture<Connection> open(Seed seed) {
        return RequestChannel.open(channels, seed.host(), seed.port(), null,
                        ch -> Connection.handshake(ch, settings.clientId(), settings.connectTimeout()))
                .handle((channel, error) -> {
                    if (error != null) {
                        RuntimeException e = Connection.toClient(error, null);
                        throw new java.util.concurrent.CompletionException(e instanceof ConnectionLost lost
                                ? lost.toPublic() : e);
                    }
                    return Connection.of(channel, seed);
                });
    }

    /**
     * Tells whether the calling thread is the client's I/O thread, where blocking would deadlock.
     *
     * @return true on the I/O thread
     */
    boolean inEventLoop() {
        for (EventExecutor e : group) {
            if (e.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs a task on the client's I/O thread after a delay; never on a shared pool (the caller's threads may all be
     * blocked waiting for this client's answers). A task still waiting when the client closes runs then, at once (a
     * request sent again then finds the client closed and fails, instead of never ending).
     *
     * @param task   what to run; it must not block
     * @param millis the delay
     * @return whether it was scheduled ({@code false} once the client is closing)
     */
    boolean later(Runnable task, long millis) {
        try {
            group.schedule(task, millis, TimeUnit.MILLISECONDS).addListener(f -> {
                if (f.isCancelled()) {
                    task.run();
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Stops the I/O thread; waits for it unless called from it. */
    @Override
    public void close() {
        boolean wait = !inEventLoop();
        var terminated = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        if (wait) {
            terminated.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
