package org.autodisk.node.ops;

import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.directory.KeyRange;
import org.autodisk.rules.Decision;
import org.autodisk.rules.DeleteRequested;

/** DELETE: the rules decide - forward, or remove the stream here through the log and say whether it existed. */
final class DeleteHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Router router;
    private final RuleGate gate;

    DeleteHandler(NodeContext ctx, Router router, RuleGate gate) {
        this.ctx = ctx;
        this.router = router;
        this.gate = gate;
    }

    @Override
    public void handle(Request request) {
        KeyRequest req = KeyRequest.decode(request.frame().body());
        Validation.key(ctx, req.key());
        KeyRange range = ctx.directory().current().lookup(req.key());
        DeleteRequested event = new DeleteRequested(request.id(), RuleGate.text(req.key()), router.owns(range),
                range.id(), request.frame().hops());
        Decision decision = gate.serveHere(request, event, range, req.key());
        if (decision != null && gate.multiplicityPossible(request, decision, req.key())) {
            LogRecord change = new LogRecord(range.id(), range.epoch(), 0, LogRecord.DELETE, req.key(), new byte[0]);
            LoggedWrite.write(ctx, request, range, change, decision.logMultiplicity(), Responses::deleteResult);
        }
    }
}
