package org.autodisk.node.migration;

import java.util.concurrent.TimeUnit;

/** Paces a copy to a rate in bytes/s that may change between chunks; a new rate starts a new window. */
final class Throttle {

    private long rate = -1;
    private long windowStart;
    private long windowBytes;

    /**
     * Counts bytes sent and sleeps until they fit the rate.
     *
     * @param bytes what was just sent
     * @param now   the rate in bytes/s (0: unthrottled)
     * @throws InterruptedException if the copy is stopped while it waits
     */
    void pace(long bytes, long now) throws InterruptedException {
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
        if (due > t) {
            TimeUnit.NANOSECONDS.sleep(due - t);
        }
    }
}
