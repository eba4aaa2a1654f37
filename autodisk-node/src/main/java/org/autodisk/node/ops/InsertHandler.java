package org.autodisk.node.ops;

import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.directory.KeyRange;
import org.autodisk.rules.Decision;
import org.autodisk.rules.InsertRequested;

/**
 * INSERT: the rules decide - forward to the owner, or create or replace the stream here, through the
 * write-ahead log with the log multiplicity they chose - or refuse.
 */
final class InsertHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Router router;
    private final RuleGate gate;

    InsertHandler(NodeContext ctx, Router router, RuleGate gate) {
        this.ctx = ctx;
        this.router = router;
        this.gate = gate;
    }

    @Override
    public void handle(Request request) {
        InsertRequest req = InsertRequest.decode(request.frame().body());
        Validation.key(ctx, req.key());
        Validation.value(ctx, req.value());
        KeyRange range = ctx.directory().current().lookup(req.key());
        boolean local = router.owns(range);
        boolean replace = local && ctx.store().contains(req.key());
        InsertRequested event = new InsertRequested(request.id(), RuleGate.text(req.key()), req.value().length,
                local, range.id(), request.frame().hops(), replace);
        Decision decision = gate.serveHere(request, event, range, req.key());
        if (decision != null && gate.multiplicityPossible(request, decision, req.key())) {
            LogRecord change = new LogRecord(range.id(), range.epoch(), 0, LogRecord.PUT, req.key(), req.value());
            LoggedWrite.write(ctx, request, range, change, decision.logMultiplicity(), created -> Responses.ok());
        }
    }
}
