package org.autodisk.node.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A copy's throttle: a wait at a low rate ends once the copy is stopped (a new copy into the same span waits for the
 * stopped one to end), and an unthrottled copy never waits.
 */
class ThrottleTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aWaitEndsOnceTheCopyIsStopped() throws Exception {
        Throttle throttle = new Throttle();
        AtomicBoolean stopped = new AtomicBoolean();
        CountDownLatch pacing = new CountDownLatch(1);
        CompletableFuture<Void> copy = CompletableFuture.runAsync(() -> {
            try {
                throttle.pace(1, 1, () -> {
                    pacing.countDown();
                    return stopped.get();
                });
                // one byte per second: this wait alone would take 1 s; the next chunk's, 1,000 s
                throttle.pace(1_000, 1, stopped::get);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(pacing.await(30, TimeUnit.SECONDS)).as("the copy waits").isTrue();
        stopped.set(true);
        copy.get(30, TimeUnit.SECONDS);
        assertThat(copy).isDone();
    }

    @Test
    void anUnthrottledCopyNeverWaitsNorAsks() throws Exception {
        Throttle throttle = new Throttle();
        throttle.pace(1 << 30, 0, () -> {
            throw new AssertionError("an unthrottled copy does not look");
        });
    }
}
