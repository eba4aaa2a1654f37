package org.autodisk.node.rangelog;

import java.util.List;
import java.util.function.Consumer;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.LogRecord;

/**
 * The {@link WriteAheadLog} of a data node in a cluster without log nodes: each change goes to the store at once,
 * on the calling thread, and is handed back before {@link #log} returns.
 */
final class DirectWrites implements WriteAheadLog {

    private final LocalStore store;

    DirectWrites(LocalStore store) {
        this.store = store;
    }

    @Override
    public void log(int rangeId, long epoch, int op, byte[] key, byte[] value, int multiplicity,
            Consumer<Applied> onApplied, Consumer<RuntimeException> onFailure) {
        long started = System.nanoTime();
        boolean changed;
        try {
            changed = op == LogRecord.PUT ? store.put(key, value) : store.delete(key);
        } catch (RuntimeException e) {
            onFailure.accept(e);
            return;
        }
        onApplied.accept(new Applied(new LogRecord(rangeId, epoch, 0, op, key, value), changed, started));
    }

    @Override
    public List<String> logNodes() {
        return List.of();
    }

    @Override
    public boolean degraded() {
        return false;
    }

    @Override
    public void close() {
    }
}
