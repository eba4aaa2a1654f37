package org.autodisk.core.net;

import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;

/**
 * Writes that one thread makes in one burst (a node's answers to an applied group of writes, a log node's answers
 * to a synced journal group) leave together: after the burst, one event-loop task and one flush per channel,
 * instead of a task, a wake-up of the event loop and a flush for every message. A write made outside a burst, or
 * on the channel's own event loop, leaves at once as before. Messages to one channel keep their order.
 */
public final class WriteBurst {

    private static final ThreadLocal<WriteBurst> OPEN = new ThreadLocal<>();

    private final Map<Channel, List<Object>> writes = new IdentityHashMap<>();

    private WriteBurst() {
    }

    /**
     * Runs work as one burst: what it writes through {@link #writeAndFlush} leaves when it returns (or throws).
     * A burst inside a burst is part of the outer one.
     *
     * @param work the work
     */
    public static void run(Runnable work) {
        if (OPEN.get() != null) {
            work.run();
            return;
        }
        WriteBurst burst = new WriteBurst();
        OPEN.set(burst);
        try {
            work.run();
        } finally {
            OPEN.remove();
            burst.send();
        }
    }

    /**
     * Writes and flushes a message: at once outside a burst or on the channel's event loop, else when the burst
     * ends.
     *
     * @param channel the channel
     * @param message the message
     */
    public static void writeAndFlush(Channel channel, Object message) {
        WriteBurst burst = OPEN.get();
        if (burst == null || channel.eventLoop().inEventLoop()) {
            channel.writeAndFlush(message);
            return;
        }
        burst.writes.computeIfAbsent(channel, c -> new ArrayList<>(8)).add(message);
    }

    private void send() {
        writes.forEach((channel, messages) -> {
            try {
                channel.eventLoop().execute(() -> {
                    messages.forEach(channel::write);
                    channel.flush();
                });
            } catch (RejectedExecutionException e) {
                // the event loop is shutting down: its channels are closing and nothing more leaves them
            }
        });
    }
}
