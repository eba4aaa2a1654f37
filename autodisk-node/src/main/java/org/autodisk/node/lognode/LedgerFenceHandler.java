package org.autodisk.node.lognode;

import java.util.concurrent.CompletableFuture;
import org.autodisk.node.ledger.LedgerPeers;
import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.LedgerWire;
import org.autodisk.node.wire.PeerResponses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LEDGER_FENCE on a log node: fences the ledger and answers, once the fence is durable, its last entry here and how
 * long its writer had been quiet here (milliseconds), for the new writer's wait for the old lease.
 */
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
        CompletableFuture<LedgerPeers.Fenced> fenced;
        try {
            fenced = ledgers.fence(ledger);
        } catch (RuntimeException e) {
            fenced = CompletableFuture.failedFuture(e);
        }
        fenced.whenComplete((f, err) -> {
            if (err == null) {
                request.reply(PeerResponses.lsnPair(f.last(), f.quietMillis()));
            } else {
                LedgerReplies.fail(nodeId, request, err);
            }
        });
    }
}
