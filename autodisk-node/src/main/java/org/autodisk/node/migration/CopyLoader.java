package org.autodisk.node.migration;

import java.util.Map;
import org.autodisk.node.store.BulkLoad;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.MigrationChunk;

/**
 * How a target writes the chunks it copies: in bulk (an SST file per stretch between progress records, ingested with
 * {@code ingestExternalFile}: {@code migration.bulk-load}, the default), or chunk by chunk into the store's memtable.
 * Either way, what {@link #settle} returned from is in the store and durable once the store is made durable, so a
 * progress record made after it names only copied keys a restart keeps.
 */
final class CopyLoader implements AutoCloseable {

    private final LocalStore store;
    private final BulkLoad bulk;
    private Map<Long, Long> positions = Map.of();

    CopyLoader(LocalStore store, boolean bulk) {
        this.store = store;
        this.bulk = bulk ? store.bulkLoad() : null;
    }

    /** Takes a chunk; the ledger positions (the first chunk's of a fresh copy) go with it. */
    void load(MigrationChunk c, Map<Long, Long> chunkPositions) {
        if (bulk == null) {
            store.ingest(c.streams(), chunkPositions);
            return;
        }
        if (!chunkPositions.isEmpty()) {
            positions = chunkPositions;
        }
        bulk.add(c.streams());
    }

    /** Writes what was loaded into the store, before a progress record. */
    void settle() {
        if (bulk != null && (bulk.pending() || !positions.isEmpty())) {
            bulk.finish(positions);
            positions = Map.of();
        }
    }

    /**
     * Why a fresh copy's snapshot cannot be used: the store holds one of its ledgers past the snapshot's position. A
     * store's positions only rise, so it would never apply those entries to the span the snapshot writes. A backup
     * copy gets there from the entries log nodes sent while it backed the range up before, which run up to what was
     * acknowledged, ahead of what the owner had applied when it took the snapshot. The copy then starts again, with a
     * newer snapshot.
     *
     * @param into      the store the copy writes
     * @param positions the snapshot's ledger positions
     * @return the reason, or {@code null} if it can be used
     */
    static String behind(LocalStore into, Map<Long, Long> positions) {
        for (Map.Entry<Long, Long> p : positions.entrySet()) {
            long held = into.appliedEntry(p.getKey());
            if (held > p.getValue()) {
                return "the snapshot holds ledger " + p.getKey() + " through entry " + p.getValue()
                        + ", the store it is copied into through " + held;
            }
        }
        return null;
    }

    /** Drops what was loaded and not settled: the copy resumes after the last key recorded. */
    @Override
    public void close() {
        if (bulk != null) {
            bulk.close();
        }
    }
}
