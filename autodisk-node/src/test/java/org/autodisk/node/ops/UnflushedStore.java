package org.autodisk.node.ops;

import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.TraverseResult;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;

/** An in-memory store that never flushes: nothing it applies counts as durable, so its log is kept whole. */
final class UnflushedStore implements LocalStore {

    private final LocalStore inner = LocalStores.inMemory();

    @Override
    public long durableLsn() {
        return 0;
    }

    @Override
    public boolean put(byte[] key, byte[] value) {
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
    public TraverseResult scan(byte[] from, byte[] toExclusive, int limit, long byteBudget) {
        return inner.scan(from, toExclusive, limit, byteBudget);
    }

    @Override
    public long count() {
        return inner.count();
    }

    @Override
    public String describe() {
        return "unflushed";
    }

    @Override
    public void close() {
        inner.close();
    }
}
