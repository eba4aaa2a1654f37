package org.autodisk.node.backup;

import java.nio.file.Path;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;

/**
 * A data node's backup copy of the ranges it backs up: one store beside its own (the ranges are disjoint), opened on
 * first use, with the entry up to which each ledger is applied. The ledgers of every writer of a range go to the
 * same copy, so a range that changes owner (a migration, later a failover) stays whole in it: the catch-up applies a
 * range's ledgers in id order, the old owner's wholly before the new one's.
 */
public final class BackupStores implements AutoCloseable {

    private final Path dir;
    private final boolean rocksDbWal;
    private volatile LocalStore copy;

    /**
     * Creates the set.
     *
     * @param dir        where the RocksDB backup copy goes ({@code dir/copies}), or {@code null} to keep it in memory
     * @param rocksDbWal whether the copy keeps RocksDB's own WAL; without it, what it holds durably is its last
     *                   flush, and log nodes keep the rest
     */
    public BackupStores(Path dir, boolean rocksDbWal) {
        this.dir = dir;
        this.rocksDbWal = rocksDbWal;
    }

    /**
     * Returns the backup copy.
     *
     * @return the store
     */
    public LocalStore copy() {
        LocalStore c = copy;
        if (c == null) {
            synchronized (this) {
                if (copy == null) {
                    copy = open();
                }
                c = copy;
            }
        }
        return c;
    }

    private LocalStore open() {
        if (dir == null) {
            return LocalStores.inMemory();
        }
        return rocksDbWal ? LocalStores.rocksDb(dir.resolve("copies"), false)
                : LocalStores.rocksDbWithoutWal(dir.resolve("copies"));
    }

    /**
     * Fault hook for an in-memory copy: replaces it by an empty copy, as a crash loses what a RocksDB copy had not
     * flushed (here: everything).
     *
     * @throws UnsupportedOperationException for a copy in RocksDB (kill the process instead)
     */
    public synchronized void loseUnflushed() {
        if (dir != null) {
            throw new UnsupportedOperationException("a copy in RocksDB loses its unflushed part when killed");
        }
        LocalStore lost = copy;
        copy = LocalStores.inMemory();
        if (lost != null) {
            lost.close();
        }
    }

    /**
     * Tells whether the copy was opened (something was backed up here since the start).
     *
     * @return whether it exists
     */
    public boolean opened() {
        return copy != null;
    }

    @Override
    public synchronized void close() {
        if (copy != null) {
            copy.close();
        }
    }
}
