package org.autodisk.core.net;

import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;

/**
 * Expires a channel's pending requests at their deadlines with one task scheduled on the event loop at a time, for
 * the earliest deadline, instead of one scheduled and cancelled per request (which cost the event loop two more
 * tasks and a priority-queue insertion and removal for every request). A request expires at its deadline, never
 * before. A request with a shorter deadline than the one registered replaces the scheduled sweep (cancelled; a sweep
 * that was replaced but runs anyway does nothing), so at most one live sweep exists per channel.
 */
final class DeadlineSweep {

    private static final long NONE = Long.MAX_VALUE;

    /** Schedules a task after a delay: the channel's event loop, or a test's hand-run queue. */
    @FunctionalInterface
    interface Scheduler {
        /**
         * Schedules a task.
         *
         * @param task  the task
         * @param nanos the delay
         * @return the scheduled task, to cancel it
         * @throws RejectedExecutionException if the loop is shutting down
         */
        ScheduledFuture<?> schedule(Runnable task, long nanos);
    }

    private final Scheduler loop;
    private final LongUnaryOperator expire;
    private final long origin = System.nanoTime();
    /** When the registered sweep fires (on this sweep's clock, {@link #now()}), or {@link #NONE}; read unlocked. */
    private volatile long registered = NONE;
    private long generation;
    private ScheduledFuture<?> task;

    /**
     * A sweep for one channel.
     *
     * @param loop   the channel's event loop
     * @param expire given the time now (on this sweep's clock), expires every request due and returns the
     *               earliest deadline of those still pending ({@link Long#MAX_VALUE} if none)
     */
    DeadlineSweep(EventLoop loop, LongUnaryOperator expire) {
        this((task, nanos) -> loop.schedule(task, nanos, TimeUnit.NANOSECONDS), expire);
    }

    /**
     * A sweep on a scheduler of its own, for tests.
     *
     * @param scheduler runs the sweeps
     * @param expire    as above
     */
    DeadlineSweep(Scheduler scheduler, LongUnaryOperator expire) {
        this.loop = scheduler;
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
     * Makes sure a sweep runs by a deadline; called after the request with that deadline was made pending (a sweep
     * that starts later sees it; one registered already fires no later than it).
     *
     * @param at the deadline, on this sweep's clock
     */
    void due(long at) {
        if (at >= registered) {
            return;
        }
        synchronized (this) {
            if (at >= registered) {
                return;
            }
            if (task != null) {
                task.cancel(false);
            }
            long mine = ++generation;
            registered = at;
            try {
                task = loop.schedule(() -> sweep(mine), Math.max(0, at - now()));
            } catch (RejectedExecutionException e) {
                registered = NONE; // the loop is shutting down: its channels close and fail what is pending
                task = null;
            }
        }
    }

    private void sweep(long mine) {
        synchronized (this) {
            if (mine != generation) {
                return; // replaced by an earlier sweep, which took this one's place
            }
            // cleared before the scan: a request made pending from here on registers its own sweep, or is seen below
            registered = NONE;
            task = null;
        }
        long next = expire.applyAsLong(now());
        if (next != NONE) {
            due(next);
        }
    }
}
