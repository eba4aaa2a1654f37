package org.autodisk.node.ops;

import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.directory.KeyRange;
import org.autodisk.rules.SearchRequested;

/** SEARCH: the rules decide - forward to the owner, or read the stream here. */
final class SearchHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Router router;
    private final RuleGate gate;

    SearchHandler(NodeContext ctx, Router router, RuleGate gate) {
        this.ctx = ctx;
        this.router = router;
        this.gate = gate;
    }

    @Override
    public void handle(Request request) {
        KeyRequest req = KeyRequest.decode(request.frame().body());
        Validation.key(ctx, req.key());
        KeyRange range = ctx.directory().current().lookup(req.key());
        SearchRequested event = new SearchRequested(request.id(), RuleGate.text(req.key()), router.owns(range),
                range.id(), request.frame().hops());
        if (gate.serveHere(request, event, range, req.key()) == null) {
            return;
        }
        request.action("store");
        long t0 = System.nanoTime();
        byte[] value = ctx.store().get(req.key());
        request.component("store", System.nanoTime() - t0);
        request.reply(Responses.searchResult(value));
    }
}
