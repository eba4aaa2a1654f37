package org.autodisk.node.queue.jmh;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.autodisk.node.queue.RequestQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The request queue: one request handed to an idle worker and back (what a sequential client sees as queue
 * wait plus the wake-up), and a burst of 1000 requests served by two workers (throughput under load).
 */
@State(Scope.Benchmark)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class QueueBenchmark {

    private RequestQueue queue;

    @Setup
    public void start() {
        queue = RequestQueue.workers("bench", 100_000, 2);
    }

    @TearDown
    public void stop() {
        queue.shutdown(Duration.ofSeconds(5));
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    public void handoffToIdleWorker() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!queue.offer(() -> done.complete(null))) {
            throw new IllegalStateException("queue full");
        }
        done.join();
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OperationsPerInvocation(1000)
    public void burstOf1000() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1000);
        for (int i = 0; i < 1000; i++) {
            if (!queue.offer(done::countDown)) {
                throw new IllegalStateException("queue full");
            }
        }
        done.await();
    }
}
