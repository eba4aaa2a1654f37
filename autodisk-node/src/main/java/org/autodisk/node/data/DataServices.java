package org.autodisk.node.data;

import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.node.store.LocalStore;

/**
 * What a data node has besides what every node has.
 *
 * @param store    its store of the streams it owns
 * @param wal      its write-ahead log: its ranges' ledgers on its log nodes, or applied at once without log nodes
 * @param backups  its backup copies of other data nodes' ranges
 * @param requests the stream requests it served per range it owns
 */
public record DataServices(LocalStore store, WriteAheadLog wal, BackupStores backups, RangeRequests requests) {
}
