package org.autodisk.node.store;

/** Crashes of a store for tests of other packages: what a killed process leaves of it. */
public final class StoreCrashes {

    private StoreCrashes() {
    }

    /**
     * Closes a RocksDB store the way a killed process leaves it: memtables are not flushed, so without RocksDB's own
     * WAL what was written since the last flush is gone when it is opened again.
     *
     * @param store a store {@link LocalStores} opened on RocksDB
     */
    public static void kill(LocalStore store) {
        ((RocksDbStore) store).closeWithoutFlush();
    }
}
