package org.autodisk.node.store;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.wire.LogRecord;

/**
 * A store whose writes tell a {@link StoreHealth} when they fail: a {@link StoreException} (the store's I/O) counts,
 * any other error says nothing about the disk; only a probe clears it.
 */
final class WatchedStore extends ForwardingStore {

    private final StoreHealth health;

    WatchedStore(LocalStore store, StoreHealth health) {
        super(store);
        this.health = health;
    }

    private <T> T watch(Supplier<T> write) {
        try {
            return write.get();
        } catch (StoreException e) { // the disk's failure, not a bad entry's: that one would fail on a backup too
            health.failed(e);
            throw e;
        }
    }

    @Override
    public boolean put(byte[] key, byte[] value) {
        return watch(() -> super.put(key, value));
    }

    @Override
    public boolean delete(byte[] key) {
        return watch(() -> super.delete(key));
    }

    @Override
    public boolean[] applyLedger(long ledgerId, List<LogRecord> entries) {
        return watch(() -> super.applyLedger(ledgerId, entries));
    }

    @Override
    public long ingest(List<KeyValue> streams, Map<Long, Long> positions) {
        return watch(() -> super.ingest(streams, positions));
    }

    @Override
    public long deleteRange(byte[] low, byte[] high) {
        return watch(() -> super.deleteRange(low, high));
    }

    @Override
    public long deleteRangeIf(byte[] low, byte[] high, BooleanSupplier condition) {
        return watch(() -> super.deleteRangeIf(low, high, condition));
    }

    @Override
    public void makeDurable() {
        watch(() -> {
            super.makeDurable();
            return null;
        });
    }

    @Override
    public BulkLoad bulkLoad() {
        BulkLoad load = watch(inner::bulkLoad);
        return new BulkLoad() {
            @Override
            public void add(List<KeyValue> ascending) {
                watch(() -> {
                    load.add(ascending);
                    return null;
                });
            }

            @Override
            public boolean pending() {
                return load.pending();
            }

            @Override
            public long finish(Map<Long, Long> positions) {
                return watch(() -> load.finish(positions));
            }

            @Override
            public void close() {
                load.close();
            }
        };
    }
}
