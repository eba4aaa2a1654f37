package org.autodisk.node.migration;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Paces a copy to a rate in bytes/s that may change between chunks; a new rate starts a new window. A wait ends early
 * once the copy is stopped (it sleeps in slices of at most {@link #SLICE_NANOS}), so that a stopped copy at a low rate
 * does not hold the span it writes for long: a new copy into the span waits for it.
 */
final class Throttle {

    /** The longest sleep between two looks at whether the copy was stopped. */
    static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private long rate = -1;
    private long windowStart;
    private long windowBytes;

    /**
     * Counts bytes sent and sleeps until they fit the rate.
     *
     * @param bytes   what was just sent
     * @param now     the rate in bytes/s (0: unthrottled)
     * @param stopped whether the copy was stopped: the wait ends
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    void pace(long bytes, long now, BooleanSupplier stopped) throws InterruptedException {
        long t = System.nanoTime();
        if (now != rate) {
            rate = now;
            windowStart = t;
            windowBytes = 0;
        }
        windowBytes += bytes;
        if (rate <= 0) {
            return;
        }
        long due = windowStart + (long) (windowBytes * 1e9 / rate);
        for (long left = due - t; left > 0 && !stopped.getAsBoolean(); left = due - System.nanoTime()) {
            TimeUnit.NANOSECONDS.sleep(Math.min(left, SLICE_NANOS));
        }
    }
}
