package org.autodisk.node.ops;

import java.util.List;
import org.autodisk.core.protocol.LogBatch;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.store.LocalStore;

/**
 * BACKUP_APPLY on a data node: applies another data node's log records to this node's backup copy of its
 * ranges, in LSN order, at most once and in one atomic write, and answers with the LSN the copy is applied through.
 */
final class BackupApplyHandler implements OperationHandler {

    private final NodeContext ctx;

    BackupApplyHandler(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handle(Request request) {
        LogBatch batch = LogBatch.decode(request.frame().body(), 0);
        LocalStore copy = ctx.backups().of(batch.stream());
        long t0 = System.nanoTime();
        synchronized (copy) {
            long applied = copy.appliedLsn();
            List<LogRecord> fresh = batch.records().stream().filter(r -> r.lsn() > applied).toList();
            copy.applyAll(fresh);
            copy.markApplied(batch.lastLsn());
        }
        request.action("backup");
        request.component("store", System.nanoTime() - t0);
        request.reply(Responses.lsnResult(copy.appliedLsn()));
    }
}
