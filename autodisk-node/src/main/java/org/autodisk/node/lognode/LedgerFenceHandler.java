package org.autodisk.node.lognode;

import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.LedgerWire;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** LEDGER_FENCE on a log node: fences the ledger and answers its last entry here once the fence is durable. */
final class LedgerFenceHandler implements OperationHandler {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerFenceHandler.class);

    private final String nodeId;
    private final LogNodeLedgers ledgers;

    LedgerFenceHandler(String nodeId, LogNodeLedgers ledgers) {
        this.nodeId = nodeId;
        this.ledgers = ledgers;
    }

    @Override
    public void handle(Request request) {
        long ledger = LedgerWire.parseFence(request.frame().body());
        request.action("ledger-fence");
        LOG.info("{}: fencing ledger {} (asked by a new writer)", nodeId, ledger);
        LedgerReplies.answerEntry(nodeId, request, () -> ledgers.fence(ledger));
    }
}
