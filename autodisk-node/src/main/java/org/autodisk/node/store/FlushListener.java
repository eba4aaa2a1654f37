package org.autodisk.node.store;

import org.rocksdb.AbstractEventListener;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.RocksDB;

/**
 * Tells a store without RocksDB's own write-ahead log that a flush made more of its data durable. Registered
 * before the database opens, so the store it calls is attached afterwards.
 */
final class FlushListener extends AbstractEventListener {

    private volatile Runnable onFlush = () -> { };

    FlushListener() {
        super(EnabledEventCallback.ON_FLUSH_COMPLETED);
    }

    void attach(Runnable action) {
        this.onFlush = action;
    }

    @Override
    public void onFlushCompleted(RocksDB db, FlushJobInfo info) {
        onFlush.run();
    }
}
