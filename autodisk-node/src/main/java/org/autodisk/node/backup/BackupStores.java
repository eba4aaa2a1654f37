package org.autodisk.node.backup;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.store.LocalStores;

/**
 * A data node's backup copies of other data nodes' ranges: one store per source node, opened on first use,
 * each with the entry up to which each of the source's ledgers is applied.
 */
public final class BackupStores implements AutoCloseable {

    private final Path dir;
    private final boolean rocksDbWal;
    private final Map<String, LocalStore> stores = new ConcurrentHashMap<>();

    /**
     * Creates the set.
     *
     * @param dir        where RocksDB backup stores go ({@code dir/<source>}), or {@code null} to keep them in
     *                   memory
     * @param rocksDbWal whether the copies keep RocksDB's own WAL; without it, what they hold durably is their
     *                   last flush, and log nodes keep the rest
     */
    public BackupStores(Path dir, boolean rocksDbWal) {
        this.dir = dir;
        this.rocksDbWal = rocksDbWal;
    }

    /**
     * Returns the backup store of one source node.
     *
     * @param source the data node whose ranges are backed up
     * @return its store
     */
    public LocalStore of(String source) {
        return stores.computeIfAbsent(source, this::open);
    }

    private LocalStore open(String source) {
        if (dir == null) {
            return LocalStores.inMemory();
        }
        return rocksDbWal ? LocalStores.rocksDb(dir.resolve(source), false)
                : LocalStores.rocksDbWithoutWal(dir.resolve(source));
    }

    /**
     * Fault hook for in-memory copies: replaces one by an empty copy, as a crash loses what a RocksDB copy had not
     * flushed (here: everything).
     *
     * @param source the data node whose copy is lost
     * @throws UnsupportedOperationException for copies in RocksDB (kill the process instead)
     */
    public void loseUnflushed(String source) {
        if (dir != null) {
            throw new UnsupportedOperationException("copies in RocksDB lose their unflushed part when killed");
        }
        LocalStore lost = stores.put(source, LocalStores.inMemory());
        if (lost != null) {
            lost.close();
        }
    }

    /**
     * Returns the stores opened so far.
     *
     * @return source to store
     */
    public Map<String, LocalStore> all() {
        return Map.copyOf(stores);
    }

    @Override
    public void close() {
        stores.values().forEach(LocalStore::close);
    }
}
