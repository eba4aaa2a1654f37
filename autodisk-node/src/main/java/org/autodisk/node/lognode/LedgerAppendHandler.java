package org.autodisk.node.lognode;

import java.util.List;
import org.autodisk.node.ledger.LedgerEntry;
import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.LedgerAppendRequest;

/**
 * LEDGER_APPEND on a log node: hands the entries to the journal (which refuses a fenced ledger or a gap) and answers
 * the ledger's last durable entry once they are durable. Runs on the network thread that decoded it, so the appends
 * of one writer reach the journal in the order they were sent.
 */
final class LedgerAppendHandler implements OperationHandler {

    private final String nodeId;
    private final LogNodeLedgers ledgers;

    LedgerAppendHandler(String nodeId, LogNodeLedgers ledgers) {
        this.nodeId = nodeId;
        this.ledgers = ledgers;
    }

    @Override
    public void handle(Request request) {
        LedgerAppendRequest req = LedgerAppendRequest.decode(request.frame().body());
        List<LedgerEntry> entries = req.entries().stream().map(r -> LedgerEntry.of(req.ledgerId(), r)).toList();
        request.action(req.recovery() ? "ledger-recovery-append" : "ledger-append");
        LedgerReplies.answerEntry(nodeId, request, () -> ledgers.append(req.ledgerId(), req.fragmentStart(),
                req.recovery(), req.lac(), entries));
    }
}
