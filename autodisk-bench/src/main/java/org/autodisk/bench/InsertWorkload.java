package org.autodisk.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.HdrHistogram.Histogram;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.Traced;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.protocol.TraceHop;

/**
 * The inserts of {@code bench forward} and {@code bench compare}: one at a time to keys of one range (every one
 * traced), and many in flight over keys of every range (one in {@link #TRACE_EVERY} traced, to sample queue wait).
 */
final class InsertWorkload {

    /** In the load phase one request in this many asks for a trace, to sample per-node queue wait. */
    static final int TRACE_EVERY = 16;

    private InsertWorkload() {
    }

    /**
     * Inserts one at a time.
     *
     * @param client the client
     * @param keys   where the keys fall
     * @param value  the value of every insert
     * @param warmup unmeasured inserts first
     * @param count  measured inserts
     * @return the measured round trips
     */
    static Stats sequential(AutoDiskClient client, KeysInRange keys, byte[] value, int warmup, int count) {
        Stats s = new Stats();
        for (int i = 0; i < warmup + count; i++) {
            Traced<Void> t = client.async().insertTraced(keys.key(i), value).join();
            if (i >= warmup) {
                s.add(t);
            }
        }
        return s;
    }

    /**
     * Inserts with a window of requests in flight, to random keys spread over the ranges.
     *
     * @param client   the client
     * @param ranges   the ranges
     * @param value    the value of every insert
     * @param n        inserts
     * @param inFlight the window
     * @param seed     seeds the choice of keys
     * @return the round trips and the throughput
     * @throws InterruptedException if interrupted while the window is full
     */
    static Stats load(AutoDiskClient client, List<RangeStatus> ranges, byte[] value, int n, int inFlight, long seed)
            throws InterruptedException {
        List<KeysInRange> gens = new ArrayList<>();
        ranges.forEach(r -> gens.add(new KeysInRange(r)));
        Semaphore window = new Semaphore(inFlight);
        Stats s = new Stats();
        Random rnd = new Random(seed);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            window.acquire();
            byte[] key = gens.get(rnd.nextInt(gens.size())).key(rnd.nextInt(Integer.MAX_VALUE));
            long sent = System.nanoTime();
            boolean traced = i % TRACE_EVERY == 0;
            CompletableFuture<?> f = traced ? client.async().insertTraced(key, value)
                    : client.async().insert(key, value);
            f.whenComplete((t, e) -> {
                if (e != null) {
                    s.error(e);
                } else if (traced) {
                    s.add((Traced<?>) t);
                } else {
                    s.rtt(System.nanoTime() - sent);
                }
                window.release();
            });
        }
        window.acquire(inFlight);
        s.throughput = n / ((System.nanoTime() - t0) / 1e9);
        return s;
    }

    /** Round trips, the queue waits of traced requests, errors and throughput of one scenario. */
    static final class Stats {
        private final Histogram rtt = new Histogram(3);
        private final Histogram entryQueue = new Histogram(3);
        private final Histogram ownerQueue = new Histogram(3);
        private int errors;
        private double throughput;

        synchronized void rtt(long nanos) {
            rtt.recordValue(nanos);
        }

        synchronized void add(Traced<?> t) {
            rtt.recordValue(t.roundTripNanos());
            List<TraceHop> hops = t.hops();
            entryQueue.recordValue(hops.get(hops.size() - 1).nanos("queue"));
            ownerQueue.recordValue(hops.get(0).nanos("queue"));
        }

        synchronized void error(Throwable e) {
            if (errors++ == 0) {
                System.out.println("first error: " + e);
            }
        }

        synchronized double p50Micros() {
            return us(rtt, 50);
        }

        synchronized double p99Micros() {
            return us(rtt, 99);
        }

        /** Inserts per second of a load run; 0 for a sequential one. */
        synchronized double throughput() {
            return throughput;
        }

        synchronized void print(String name) {
            System.out.printf("| %s | %d | %.0f | %.0f | %.0f | %.1f / %.1f | %.1f / %.1f | %s |%n", name,
                    rtt.getTotalCount(), us(rtt, 50), us(rtt, 99), rtt.getMean() / 1000, us(entryQueue, 50),
                    us(entryQueue, 99), us(ownerQueue, 50), us(ownerQueue, 99),
                    throughput > 0 ? String.format("%.0f", throughput) : "-");
            if (errors > 0) {
                System.out.println("errors: " + errors);
            }
        }

        private static double us(Histogram h, double p) {
            return h.getValueAtPercentile(p) / 1000.0;
        }
    }
}
