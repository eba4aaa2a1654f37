package org.autodisk.node.store;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

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
        return RocksDbStore.open(dir, syncWrites, true);
    }

    /**
     * Opens (creating if needed) a RocksDB store whose own write-ahead log is off: for a data node whose log
     * nodes hold every change. Each ledger's applied entry is flushed atomically with the data (atomic flush over
     * both column families), {@link LocalStore#durableEntry} is the applied entry of the last flush, and after a
     * crash the node's ranges replay everything after it from their ledgers.
     *
     * @param dir the data directory
     * @return the store
     * @throws StoreException if the directory cannot be opened (in use, corrupt, not writable)
     */
    public static LocalStore rocksDbWithoutWal(Path dir) {
        return RocksDbStore.open(dir, false, false);
    }

    /**
     * Opens (creating if needed) a RocksDB store for a node's backup copies: as {@link #rocksDb} (unsynced) or
     * {@link #rocksDbWithoutWal}, but it keeps no running stream count, which nothing reads on a copy: its
     * {@link LocalStore#count} counts the keys, and {@link LocalStore#applyLedger} does not ask whether each key exists
     * (answering every change as made).
     *
     * @param dir     the directory
     * @param journal whether RocksDB's own write-ahead log is on
     * @return the store
     * @throws StoreException if the directory cannot be opened (in use, corrupt, not writable)
     */
    public static LocalStore backupCopy(Path dir, boolean journal) {
        return RocksDbStore.open(dir, false, journal, false);
    }

    /**
     * Wraps a store so that its writes fail while a fault hook says the disk is full (fault tests only).
     *
     * @param store   the store
     * @param full    whether the disk is full now
     * @param message what a failed write says
     * @return the store with the hook
     */
    public static LocalStore failingWritesWhile(LocalStore store, BooleanSupplier full, Supplier<String> message) {
        return new DiskFullStore(store, full, message);
    }

    /**
     * Wraps a store so that its writes tell whether they failed ({@link StoreHealth}).
     *
     * @param store  the store
     * @param health told of each write's outcome
     * @return the store
     */
    public static LocalStore watched(LocalStore store, StoreHealth health) {
        return new WatchedStore(store, health);
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
