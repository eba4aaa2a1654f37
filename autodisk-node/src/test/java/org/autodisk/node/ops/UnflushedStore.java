package org.autodisk.node.ops;

import org.autodisk.node.store.ForwardingStore;
import org.autodisk.node.store.LocalStores;

/** An in-memory store that never flushes: nothing it applies counts as durable, so its log is kept whole. */
final class UnflushedStore extends ForwardingStore {

    UnflushedStore() {
        super(LocalStores.inMemory());
    }

    @Override
    public long durableLsn() {
        return 0;
    }
}
