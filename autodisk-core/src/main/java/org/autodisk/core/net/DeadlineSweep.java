package org.autodisk.core.net;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;
import io.netty.channel.EventLoop;

/**
 * Expires a channel's pending requests at their deadlines with one task scheduled on the event loop at a time, for
 * the earliest deadline, instead of one scheduled and cancelled per request (which cost the event loop two more
 * tasks and a priority-queue insertion and removal for every request). A request expires at its deadline, never
 * before; a request with a shorter deadline than those pending schedules an earlier sweep.
 */
final class DeadlineSweep {

    private static final long NONE = Long.MAX_VALUE;

    private final EventLoop loop;
    private final LongUnaryOperator expire;
    private final long origin = System.nanoTime();
    /** When the earliest sweep registered fires (on this sweep's clock, {@link #now()}), or {@link #NONE}. */
    private final AtomicLong registered = new AtomicLong(NONE);

    /**
     * A sweep for one channel.
     *
     * @param loop   the channel's event loop
     * @param expire given the time now (on this sweep's clock), expires every request due and returns the
     *               earliest deadline of those still pending ({@link Long#MAX_VALUE} if none)
     */
    DeadlineSweep(EventLoop loop, LongUnaryOperator expire) {
        this.loop = loop;
        this.expire = expire;
    }

    /**
     * Returns the time on this sweep's clock: nanoseconds since it was made, so never negative nor overflowing.
     *
     * @return now
     */
    long now() {
        return System.nanoTime() - origin;
    }

    /**
     * Returns when a request made now with this deadline expires, on this sweep's clock.
     *
     * @param deadline how long the request may wait for its answer
     * @return the time it expires
     */
    long after(Duration deadline) {
        return now() + Math.min(deadline.toNanos(), Long.MAX_VALUE / 4);
    }

    /**
     * Makes sure a sweep runs by a deadline; called after the request with that deadline was made pending.
     *
     * @param at the deadline, on this sweep's clock
     */
    void due(long at) {
        long current = registered.get();
        while (at < current) {
            if (registered.compareAndSet(current, at)) {
                schedule(at);
                return;
            }
            current = registered.get();
        }
    }

    private void schedule(long at) {
        try {
            loop.schedule(this::sweep, Math.max(0, at - now()), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            registered.set(NONE); // the loop is shutting down: its channels close and fail what is pending
        }
    }

    private void sweep() {
        // cleared first: a request made pending from here on registers its own sweep, or is seen below
        registered.set(NONE);
        long next = expire.applyAsLong(now());
        if (next != NONE) {
            due(next);
        }
    }
}
