package org.autodisk.node.ops;

import org.autodisk.core.protocol.InsertRequest;
import org.autodisk.core.protocol.Responses;

/** INSERT: create or replace a stream on its owner. */
final class InsertHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Router router;

    InsertHandler(NodeContext ctx, Router router) {
        this.ctx = ctx;
        this.router = router;
    }

    @Override
    public void handle(Request request) {
        InsertRequest req = InsertRequest.decode(request.frame().body());
        Validation.key(ctx, req.key());
        Validation.value(ctx, req.value());
        if (router.forwardIfRemote(request, req.key())) {
            return;
        }
        request.action("store");
        long t0 = System.nanoTime();
        ctx.store().put(req.key(), req.value());
        request.component("store", System.nanoTime() - t0);
        request.reply(Responses.ok());
    }
}
