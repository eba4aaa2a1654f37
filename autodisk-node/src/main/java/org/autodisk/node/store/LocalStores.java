package org.autodisk.node.store;

import java.nio.file.Path;

/** Creates local stores. */
public final class LocalStores {

    private LocalStores() {
    }

    /**
     * Opens (creating if needed) a RocksDB store.
     *
     * @param dir        the data directory
     * @param syncWrites whether every write waits for fsync of RocksDB's WAL
     * @return the store
     * @throws StoreException if the directory cannot be opened (in use, corrupt, not writable)
     */
    public static LocalStore rocksDb(Path dir, boolean syncWrites) {
        return RocksDbStore.open(dir, syncWrites);
    }

    /**
     * Creates an empty store in memory, for tests and log-only nodes.
     *
     * @return the store
     */
    public static LocalStore inMemory() {
        return new InMemoryStore();
    }
}
