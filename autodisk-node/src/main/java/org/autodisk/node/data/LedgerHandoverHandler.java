package org.autodisk.node.data;

import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.LedgerInfo;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.node.wire.LedgerHandover;

/**
 * LEDGER_HANDOVER on a data node: a range's former owner says where its ledger ends after a migration's cutover to
 * this node. Kept for the range's new slot, which checks it is the migration's source's ledger before it uses it; a
 * ledger this node knows to be written by another node is refused.
 */
final class LedgerHandoverHandler implements OperationHandler {

    private final String nodeId;
    private final Metadata metadata;
    private final WriteAheadLog wal;

    LedgerHandoverHandler(String nodeId, Metadata metadata, WriteAheadLog wal) {
        this.nodeId = nodeId;
        this.metadata = metadata;
        this.wal = wal;
    }

    @Override
    public void handle(Request request) {
        LedgerHandover h = LedgerHandover.decode(request.frame().body());
        LedgerInfo l = metadata.current().ledger(h.ledgerId());
        if (l != null && !l.writer().equals(h.writer())) {
            request.replyError(Status.INVALID_ARGUMENT, "ledger " + h.ledgerId() + " is written by " + l.writer()
                    + ", not by " + h.writer() + "; " + nodeId + " ignores the handover");
            return;
        }
        if (!wal.handOver(h)) {
            request.replyError(Status.NODE_UNAVAILABLE, nodeId + " did not keep the handover of ledger "
                    + h.ledgerId() + "; it waits for the close to commit");
            return;
        }
        request.reply(Responses.ok());
    }
}
