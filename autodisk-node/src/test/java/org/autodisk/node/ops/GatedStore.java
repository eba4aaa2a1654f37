package org.autodisk.node.ops;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.autodisk.node.store.ForwardingStore;
import org.autodisk.node.store.LocalStores;

/** A store whose writes wait at a gate: the fault-injection hook that holds the workers. */
final class GatedStore extends ForwardingStore {

    final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch entered;
    volatile boolean closed;
    private final AtomicInteger puts = new AtomicInteger();

    GatedStore(int workers) {
        super(LocalStores.inMemory());
        entered = new CountDownLatch(workers);
    }

    int puts() {
        return puts.get();
    }

    @Override
    public boolean put(byte[] key, byte[] value) {
        entered.countDown();
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        puts.incrementAndGet();
        return inner.put(key, value);
    }

    @Override
    public String describe() {
        return "gated";
    }

    @Override
    public void close() {
        closed = true;
        inner.close();
    }
}
