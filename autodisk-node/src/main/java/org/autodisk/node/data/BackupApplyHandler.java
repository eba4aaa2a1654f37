package org.autodisk.node.data;

import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.BackupApplyRequest;
import org.autodisk.node.wire.LogBatch;
import org.autodisk.node.wire.PeerResponses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BACKUP_APPLY on a data node: applies another data node's log records to this node's backup copy of its
 * ranges, in LSN order, at most once and in one atomic write, and answers with the LSN the copy is applied through
 * and the one it holds durably through (its last flush: backup copies run without RocksDB's own WAL). A page whose
 * span starts past the applied LSN + 1 (the copy lost its unflushed part in a crash) is not applied: the answer
 * tells the log node where to resend from.
 */
final class BackupApplyHandler implements OperationHandler {

    private static final Logger LOG = LoggerFactory.getLogger(BackupApplyHandler.class);

    private final String nodeId;
    private final BackupStores backups;

    BackupApplyHandler(String nodeId, BackupStores backups) {
        this.nodeId = nodeId;
        this.backups = backups;
    }

    @Override
    public void handle(Request request) {
        BackupApplyRequest req = BackupApplyRequest.decode(request.frame().body());
        LogBatch batch = req.batch();
        LocalStore copy = backups.of(batch.stream());
        long t0 = System.nanoTime();
        synchronized (copy) {
            long applied = copy.appliedLsn();
            if (req.fromLsn() > 0 && req.fromLsn() <= applied + 1) {
                copy.applyAll(batch.records().stream().filter(r -> r.lsn() > applied).toList());
                copy.markApplied(batch.lastLsn());
            } else if (req.fromLsn() > applied + 1) {
                LOG.info("{}: backup of {} is applied through LSN {}; a page from LSN {} waits for the records "
                        + "before it", nodeId, batch.stream(), applied, req.fromLsn());
            }
        }
        request.action("backup");
        request.component("store", System.nanoTime() - t0);
        request.reply(PeerResponses.lsnPair(copy.appliedLsn(), copy.durableLsn()));
    }
}
