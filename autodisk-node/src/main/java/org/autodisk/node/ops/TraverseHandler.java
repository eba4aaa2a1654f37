package org.autodisk.node.ops;

import org.autodisk.core.Keys;
import org.autodisk.core.protocol.TraverseRequest;

/**
 * TRAVERSE: the node asked gathers the streams of every range the interval crosses, in key order, from its
 * own store or from the owners, and answers with one ordered page.
 */
final class TraverseHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Router router;
    private final RuleGate gate;

    TraverseHandler(NodeContext ctx, Router router, RuleGate gate) {
        this.ctx = ctx;
        this.router = router;
        this.gate = gate;
    }

    @Override
    public void handle(Request request) {
        TraverseRequest req = TraverseRequest.decode(request.frame().body());
        validate(req);
        request.action("gather");
        new TraverseGather(ctx, router, gate, request, req).run();
    }

    private void validate(TraverseRequest req) {
        if (req.limit() < 1) {
            Validation.fail("traverse limit must be at least 1, was " + req.limit());
        }
        if (req.from().length > ctx.limits().maxKeyBytes()) {
            Validation.fail("traverse from-key is " + req.from().length + " bytes: keys must be 1.."
                    + ctx.limits().maxKeyBytes() + " bytes");
        }
        if (req.toExclusive() != null) {
            Validation.key(ctx, req.toExclusive());
            if (Keys.compare(req.from(), req.toExclusive()) >= 0) {
                Validation.fail("traverse from-key " + Keys.render(req.from()) + " must sort before the end key "
                        + Keys.render(req.toExclusive()));
            }
        }
    }
}
