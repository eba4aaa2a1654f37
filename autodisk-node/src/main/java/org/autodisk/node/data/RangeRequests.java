package org.autodisk.node.data;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The stream requests (insert, search, delete) a data node serves for each range it owns, counted when it serves
 * one as the owner (a request it forwards counts at the owner), as a rate over the last complete window of
 * {@value #WINDOW_SECONDS} seconds. The balance rules move ranges by these rates.
 */
public final class RangeRequests {

    /** The length of a window, in seconds. */
    public static final int WINDOW_SECONDS = 10;
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);

    private final Map<Integer, Window> windows = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;

    /** Counts by the JVM's monotonic clock. */
    public RangeRequests() {
        this(System::nanoTime);
    }

    /**
     * Counts by a given clock (tests).
     *
     * @param nanoClock monotonic nanoseconds
     */
    RangeRequests(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** One range's count in the current window and the last complete one. */
    private static final class Window {
        private volatile long index;
        private final LongAdder current = new LongAdder();
        private volatile long previous;

        Window(long index) {
            this.index = index;
        }

        void count(long now) {
            if (now != index) {
                roll(now);
            }
            current.increment();
        }

        synchronized void roll(long now) {
            if (now > index) {
                previous = now == index + 1 ? current.sumThenReset() : 0;
                if (now != index + 1) {
                    current.reset();
                }
                index = now;
            }
        }

        double rate(long now) {
            long at = index;
            long done = now == at ? previous : now == at + 1 ? current.sum() : 0;
            return done / (double) WINDOW_SECONDS;
        }
    }

    /**
     * Counts one request served for a range.
     *
     * @param rangeId the range
     */
    public void served(int rangeId) {
        long now = windowIndex();
        windows.computeIfAbsent(rangeId, id -> new Window(now)).count(now);
    }

    /**
     * Returns a range's request rate over the last complete window.
     *
     * @param rangeId the range
     * @return requests per second (0 for a range this node served nothing of lately)
     */
    public double rate(int rangeId) {
        Window w = windows.get(rangeId);
        return w == null ? 0 : w.rate(windowIndex());
    }

    private long windowIndex() {
        return nanoClock.getAsLong() / WINDOW_NANOS;
    }
}
