package org.autodisk.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.autodisk.client.AutoDiskException;
import org.autodisk.client.Traced;

/** The three ways the experiments insert: one at a time, one at a time with traces, and many in flight. */
final class InsertLoad {

    private static final long HIGHEST_NANOS = 3_600_000_000_000L;

    private InsertLoad() {
    }

    /**
     * What one run of inserts did.
     *
     * @param n       inserts sent
     * @param errors  inserts that failed
     * @param nanos   wall time of the whole run
     * @param latency round trips of the successful inserts
     * @param span    when it ran
     */
    record Run(int n, int errors, long nanos, InsertResults.Summary latency, InsertResults.Span span) {

        double totalMs() {
            return nanos / 1e6;
        }
    }

    /**
     * A traced run: the run and the traces of its successful inserts.
     *
     * @param run    the run
     * @param traces one per successful insert
     */
    record TracedRun(Run run, List<Traced<Void>> traces) {
    }

    /** Inserts {@code n} new streams one after another: each is sent when the previous one was answered. */
    static Run sequential(BenchCluster c, Supplier<byte[]> keys, byte[] value, int n, Tracker t) {
        long units = Tracker.sequentialUnits(value.length);
        long[] rtt = new long[n];
        int ok = 0;
        int errors = 0;
        double started = t.ms();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            byte[] key = keys.get();
            long sent = System.nanoTime();
            try {
                c.client.insert(key, value);
                rtt[ok++] = System.nanoTime() - sent;
            } catch (AutoDiskException e) {
                c.failed(e);
                errors++;
            }
            t.advance(units);
        }
        long nanos = System.nanoTime() - t0;
        count(c, ok, errors);
        return new Run(n, errors, nanos, InsertResults.Summary.of(rtt, ok), new InsertResults.Span(started, t.ms()));
    }

    /** Like {@link #sequential}, each insert asking every node on its path for a trace. */
    static TracedRun traced(BenchCluster c, Supplier<byte[]> keys, byte[] value, int n, Tracker t) {
        long units = Tracker.sequentialUnits(value.length);
        List<Traced<Void>> traces = new ArrayList<>(n);
        long[] rtt = new long[n];
        int errors = 0;
        double started = t.ms();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            try {
                Traced<Void> r = c.client.async().insertTraced(keys.get(), value).join();
                rtt[traces.size()] = r.roundTripNanos();
                traces.add(r);
            } catch (CompletionException e) {
                c.failed(e);
                errors++;
            }
            t.advance(units);
        }
        long nanos = System.nanoTime() - t0;
        count(c, traces.size(), errors);
        Run run = new Run(n, errors, nanos, InsertResults.Summary.of(rtt, traces.size()),
                new InsertResults.Span(started, t.ms()));
        return new TracedRun(run, traces);
    }

    /** Inserts {@code n} new streams keeping {@code window} requests in flight. */
    static Run inFlight(BenchCluster c, Supplier<byte[]> keys, byte[] value, int n, int window, Tracker t)
            throws InterruptedException {
        long units = Tracker.inFlightUnits(value.length);
        Histogram latency = new Histogram(HIGHEST_NANOS, 3);
        AtomicInteger errors = new AtomicInteger();
        Semaphore slots = new Semaphore(window);
        double started = t.ms();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            byte[] key = keys.get();
            slots.acquire();
            long sent = System.nanoTime();
            c.client.async().insert(key, value).whenComplete((ok, e) -> {
                if (e == null) {
                    record(latency, System.nanoTime() - sent);
                } else {
                    c.failed(e);
                    errors.incrementAndGet();
                }
                slots.release();
            });
            t.advance(units);
        }
        slots.acquire(window);
        long nanos = System.nanoTime() - t0;
        slots.release(window);
        count(c, n - errors.get(), errors.get());
        InsertResults.Summary summary;
        synchronized (latency) {
            summary = InsertResults.Summary.of(latency);
        }
        return new Run(n, errors.get(), nanos, summary, new InsertResults.Span(started, t.ms()));
    }

    private static void record(Histogram h, long nanos) {
        synchronized (h) {
            h.recordValue(Math.min(nanos, HIGHEST_NANOS));
        }
    }

    private static void count(BenchCluster c, long ok, long errors) {
        c.acked.add(ok);
        c.errors.add(errors);
    }
}
