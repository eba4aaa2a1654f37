package org.autodisk.node.ops;

import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Responses;

/** DELETE: remove a stream on its owner and say whether it existed. */
final class DeleteHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Router router;

    DeleteHandler(NodeContext ctx, Router router) {
        this.ctx = ctx;
        this.router = router;
    }

    @Override
    public void handle(Request request) {
        KeyRequest req = KeyRequest.decode(request.frame().body());
        Validation.key(ctx, req.key());
        if (router.forwardIfRemote(request, req.key())) {
            return;
        }
        request.action("store");
        long t0 = System.nanoTime();
        boolean existed = ctx.store().delete(req.key());
        request.component("store", System.nanoTime() - t0);
        request.reply(Responses.deleteResult(existed));
    }
}
