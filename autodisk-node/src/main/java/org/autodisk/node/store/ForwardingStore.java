package org.autodisk.node.store;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.TraverseResult;
import org.autodisk.node.wire.LogRecord;

/**
 * A store that hands every call to another; fault-injecting stores override what they change. {@link #bulkLoad()} is
 * not handed on: the default bulk load goes through this store's {@link #ingest} and {@link #makeDurable}.
 */
public abstract class ForwardingStore implements LocalStore {

    /** The store every call goes to. */
    protected final LocalStore inner;

    /**
     * Creates a store forwarding to {@code inner}.
     *
     * @param inner the store every call goes to
     */
    protected ForwardingStore(LocalStore inner) {
        this.inner = inner;
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
    public RangeUsage usage(byte[] low, byte[] high) {
        return inner.usage(low, high);
    }

    @Override
    public byte[] splitKey(byte[] low, byte[] high) {
        return inner.splitKey(low, high);
    }

    @Override
    public boolean contains(byte[] key) {
        return inner.contains(key);
    }

    @Override
    public boolean delete(byte[] key) {
        return inner.delete(key);
    }

    @Override
    public boolean[] applyLedger(long ledgerId, List<LogRecord> entries) {
        return inner.applyLedger(ledgerId, entries);
    }

    @Override
    public long appliedEntry(long ledgerId) {
        return inner.appliedEntry(ledgerId);
    }

    @Override
    public long durableEntry(long ledgerId) {
        return inner.durableEntry(ledgerId);
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
        return "forwarding to " + inner.describe();
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public StoreSnapshot snapshot() {
        return inner.snapshot();
    }

    @Override
    public long ingest(List<KeyValue> streams, Map<Long, Long> positions) {
        return inner.ingest(streams, positions);
    }

    @Override
    public long deleteRange(byte[] low, byte[] high) {
        return inner.deleteRange(low, high);
    }

    @Override
    public long deleteRangeIf(byte[] low, byte[] high, BooleanSupplier condition) {
        return inner.deleteRangeIf(low, high, condition);
    }

    @Override
    public void reclaim(byte[] low, byte[] high) {
        inner.reclaim(low, high);
    }

    @Override
    public void makeDurable() {
        inner.makeDurable();
    }
}
