package org.autodisk.node.wal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A one-shot gate for fault hooks: the hooked thread says it arrived and waits until the test opens it. */
final class Latch {

    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch open = new CountDownLatch(1);

    /** Called by the hooked thread. */
    void arriveAndWait() throws IOException {
        arrived.countDown();
        try {
            if (!open.await(60, TimeUnit.SECONDS)) {
                throw new IOException("test latch never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted at the test latch");
        }
    }

    /** Waits until the hooked thread is held (the timeout only keeps a broken build from hanging). */
    void awaitArrival() throws InterruptedException {
        if (!arrived.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the hooked thread never arrived");
        }
    }

    void open() {
        open.countDown();
    }
}
