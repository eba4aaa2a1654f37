package org.autodisk.node.migration;

import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.peer.PeerChannel;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.node.store.LocalStore;

/**
 * What a migration uses on a data node.
 *
 * @param self        this node
 * @param metadata    the cluster metadata
 * @param peers       the other nodes
 * @param ledgerPeers the log nodes, for reading ledgers
 * @param store       this node's store
 * @param backups     this node's backup copy (a backup fill's target writes there)
 * @param settings    the migration settings
 * @param wal         this node's log of the ranges it owns (a cutover opens the target's ledger through it)
 * @param times       where the migrations this node receives spend their time
 */
record MigrationContext(String self, Metadata metadata, PeerChannel peers, LedgerPeers ledgerPeers, LocalStore store,
        BackupStores backups, MigrationSettings settings, WriteAheadLog wal, MigrationTimes times) {

    /** The store a migration's target writes: its own for a move, its backup copy for a backup fill. */
    LocalStore into(MigrationInfo m) {
        return m.backup() ? backups.copy() : store;
    }

    /**
     * Clears the span a fresh copy writes, under the store's lock: a backup copy's is the one log nodes' entries are
     * applied under, so that an entry applied just before is deleted with the span (it then counts as applied in the
     * copy: the first chunk's snapshot must hold it, see {@link CopyLoader#behind}).
     *
     * @param m the migration
     * @param r its range
     * @return how many streams were deleted
     */
    long clear(MigrationInfo m, RangeDescriptor r) {
        LocalStore into = into(m);
        synchronized (into) {
            return into.deleteRange(r.low(), r.high());
        }
    }
}
