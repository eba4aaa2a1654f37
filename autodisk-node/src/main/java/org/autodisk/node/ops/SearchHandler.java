package org.autodisk.node.ops;

import org.autodisk.core.protocol.KeyRequest;
import org.autodisk.core.protocol.Responses;

/** SEARCH: read a stream from its owner. */
final class SearchHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Router router;

    SearchHandler(NodeContext ctx, Router router) {
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
        byte[] value = ctx.store().get(req.key());
        request.component("store", System.nanoTime() - t0);
        request.reply(Responses.searchResult(value));
    }
}
