package org.autodisk.node.backup;

import java.nio.file.Path;
import java.util.function.UnaryOperator;
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
    private final UnaryOperator<LocalStore> wrap;
    private volatile LocalStore copy;

    /**
     * Creates the set.
     *
     * @param dir        where the RocksDB backup copy goes ({@code dir/copies}), or {@code null} to keep it in memory
     * @param rocksDbWal whether the copy keeps RocksDB's own WAL; without it, what it holds durably is its last
     *                   flush, and log nodes keep the rest
     */
    public BackupStores(Path dir, boolean rocksDbWal) {
        this(dir, rocksDbWal, UnaryOperator.identity());
    }

    /**
     * Creates the set, its copy seen through a wrapper as it opens.
     *
     * @param dir        where the RocksDB backup copy goes ({@code dir/copies}), or {@code null} to keep it in memory
     * @param rocksDbWal whether the copy keeps RocksDB's own WAL
     * @param wrap       wraps the copy as it opens (the node's store health watching its writes, fault hooks)
     */
    public BackupStores(Path dir, boolean rocksDbWal, UnaryOperator<LocalStore> wrap) {
        this.dir = dir;
        this.rocksDbWal = rocksDbWal;
        this.wrap = wrap;
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
        return wrap.apply(dir == null ? LocalStores.inMemory() : LocalStores.backupCopy(dir.resolve("copies"),
                rocksDbWal));
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
        copy = wrap.apply(LocalStores.inMemory());
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
