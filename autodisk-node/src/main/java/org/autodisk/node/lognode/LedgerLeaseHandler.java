package org.autodisk.node.lognode;

import java.util.List;
import org.autodisk.node.ledger.LogNodeLedgers;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.LedgerWire;

/**
 * LEDGER_LEASE on a log node: a writer renews its lease on its ledgers; answered by the ones fenced here (the others
 * were not fenced when the question was taken). Nothing waits for the disk.
 */
final class LedgerLeaseHandler implements OperationHandler {

    private final LogNodeLedgers ledgers;

    LedgerLeaseHandler(LogNodeLedgers ledgers) {
        this.ledgers = ledgers;
    }

    @Override
    public void handle(Request request) {
        List<Long> asked = LedgerWire.parseLedgerIds(request.frame().body());
        request.action("ledger-lease");
        request.reply(LedgerWire.fencedResult(ledgers.confirm(asked)));
    }
}
