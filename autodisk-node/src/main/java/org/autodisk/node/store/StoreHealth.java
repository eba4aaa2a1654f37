package org.autodisk.node.store;

import java.util.function.LongSupplier;

/**
 * Whether a data node's store takes writes: since when its writes have failed, and the last error; told of failures by
 * the store {@link LocalStores#watched watched} for it, and cleared only by a probe that writes to the disk (a write
 * that returns may have touched no disk: an empty flush, a write the WAL alone took). A disk that filled shows here,
 * not in reads, which go on.
 */
public final class StoreHealth {

    private final LongSupplier nanos;
    private volatile boolean failing;
    private volatile long failingSince;
    private volatile String lastError;

    /**
     * Creates the health of a store.
     *
     * @param nanos a monotonic clock
     */
    public StoreHealth(LongSupplier nanos) {
        this.nanos = nanos;
    }

    void failed(RuntimeException e) {
        lastError = e.getMessage();
        if (!failing) {
            failingSince = nanos.getAsLong();
            failing = true;
        }
    }

    /** A probe showed the store takes writes again: the failure is over. */
    public void clear() {
        failing = false;
    }

    /**
     * Returns how long the store's writes have failed, with none succeeding in between.
     *
     * @return milliseconds, 0 while writes succeed
     */
    public long failingForMillis() {
        return failing ? Math.max(1, (nanos.getAsLong() - failingSince) / 1_000_000) : 0;
    }

    /**
     * Returns the last write error.
     *
     * @return its message, or {@code null} if none
     */
    public String lastError() {
        return lastError;
    }
}
