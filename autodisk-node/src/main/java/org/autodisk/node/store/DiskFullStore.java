package org.autodisk.node.store;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.wire.LogRecord;

/**
 * A store whose writes fail while a fault hook says the disk is full ({@link StoreException}, as a real write error
 * surfaces); reads go on. Fault tests only ({@code fault.hooks-dir}).
 */
final class DiskFullStore extends ForwardingStore {

    private final BooleanSupplier full;
    private final Supplier<String> message;

    DiskFullStore(LocalStore store, BooleanSupplier full, Supplier<String> message) {
        super(store);
        this.full = full;
        this.message = message;
    }

    private void writable() {
        if (full.getAsBoolean()) {
            throw new StoreException(inner.describe() + ": " + message.get(), new IOException(message.get()));
        }
    }

    @Override
    public boolean put(byte[] key, byte[] value) {
        writable();
        return super.put(key, value);
    }

    @Override
    public boolean delete(byte[] key) {
        writable();
        return super.delete(key);
    }

    @Override
    public boolean[] applyLedger(long ledgerId, List<LogRecord> entries) {
        writable();
        return super.applyLedger(ledgerId, entries);
    }

    @Override
    public long ingest(List<KeyValue> streams, Map<Long, Long> positions) {
        writable();
        return super.ingest(streams, positions);
    }

    /** The inner store's own bulk load (RocksDB: SST ingestion), its writes under the hook. */
    @Override
    public BulkLoad bulkLoad() {
        writable();
        BulkLoad load = inner.bulkLoad();
        return new BulkLoad() {
            @Override
            public void add(List<KeyValue> ascending) {
                writable();
                load.add(ascending);
            }

            @Override
            public boolean pending() {
                return load.pending();
            }

            @Override
            public long finish(Map<Long, Long> positions) {
                writable();
                return load.finish(positions);
            }

            @Override
            public void close() {
                load.close();
            }
        };
    }

    @Override
    public long deleteRange(byte[] low, byte[] high) {
        writable();
        return super.deleteRange(low, high);
    }

    @Override
    public long deleteRangeIf(byte[] low, byte[] high, BooleanSupplier condition) {
        writable();
        return super.deleteRangeIf(low, high, condition);
    }

    @Override
    public void makeDurable() {
        writable();
        super.makeDurable();
    }
}
