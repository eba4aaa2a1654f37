package org.autodisk.node.data;

import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.backup.BackupStores;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.LedgerApplyRequest;
import org.autodisk.node.wire.PeerResponses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LEDGER_APPLY on a data node: applies entries of a ledger to this node's backup copy, in id
 * order and at most once (with the ledger's applied entry, in one atomic write), and answers the copy's applied and
 * durable entry of the ledger. Entries that start past the applied entry + 1 (the copy lost its unflushed part in a
 * crash) are not applied: the answer tells the log node where to resend from, so a copy never counts itself past an
 * entry it did not receive. A question about the node's own store answers how far the owner holds the ledger (the log
 * nodes truncate below what owner and backup hold durably).
 */
final class LedgerApplyHandler implements OperationHandler {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerApplyHandler.class);

    private final String nodeId;
    private final Metadata metadata;
    private final LocalStore own;
    private final BackupStores backups;

    LedgerApplyHandler(String nodeId, Metadata metadata, LocalStore own, BackupStores backups) {
        this.nodeId = nodeId;
        this.metadata = metadata;
        this.own = own;
        this.backups = backups;
    }

    @Override
    public void handle(Request request) {
        LedgerApplyRequest req = LedgerApplyRequest.decode(request.frame().body());
        long id = req.ledgerId();
        if (req.ownStore()) {
            request.reply(PeerResponses.lsnPair(own.appliedEntry(id), own.durableEntry(id)));
            return;
        }
        LedgerInfo ledger = metadata.current().ledger(id);
        if (ledger == null) {
            throw new ProtocolException(Status.NODE_UNAVAILABLE, "data node " + nodeId + " does not know ledger "
                    + id + " yet (metadata v" + metadata.current().version() + ")");
        }
        LocalStore copy = backups.copy();
        long t0 = System.nanoTime();
        synchronized (copy) {
            long applied = copy.appliedEntry(id);
            if (!req.entries().isEmpty() && req.firstEntry() <= applied + 1) {
                copy.applyLedger(id, req.entries());
            } else if (!req.entries().isEmpty()) {
                LOG.info("{}: the backup copy holds ledger {} through entry {}; entries from {} wait for those before",
                        nodeId, id, applied, req.firstEntry());
            }
        }
        request.action("backup");
        request.component("store", System.nanoTime() - t0);
        request.reply(PeerResponses.lsnPair(copy.appliedEntry(id), copy.durableEntry(id)));
    }
}
