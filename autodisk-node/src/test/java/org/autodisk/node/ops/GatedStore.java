package org.autodisk.node.ops;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.TraverseResult;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;

/** A store whose writes wait at a gate: the fault-injection hook that holds the workers. */
final class GatedStore implements LocalStore {

    final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch entered;
    volatile boolean closed;
    private final LocalStore inner = LocalStores.inMemory();
    private final AtomicInteger puts = new AtomicInteger();

    GatedStore(int workers) {
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
    public byte[] get(byte[] key) {
        return inner.get(key);
    }

    @Override
    public boolean delete(byte[] key) {
        return inner.delete(key);
    }

    @Override
    public boolean apply(LogRecord record) {
        return inner.apply(record);
    }

    @Override
    public void markApplied(long lsn) {
        inner.markApplied(lsn);
    }

    @Override
    public long appliedLsn() {
        return inner.appliedLsn();
    }

    @Override
    public TraverseResult scan(byte[] from, byte[] to, int limit, long budget) {
        return inner.scan(from, to, limit, budget);
    }

    @Override
    public long count() {
        return inner.count();
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
