package org.autodisk.node.data;

import org.autodisk.core.Keys;
import org.autodisk.core.protocol.TraverseRequest;
import org.autodisk.node.ops.Guard;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;

/**
 * TRAVERSE: the node asked gathers the streams of every range the interval crosses, in key order, from its
 * own store or from the owners, and answers with one ordered page.
 */
final class TraverseHandler implements OperationHandler {

    private final Serving serving;

    TraverseHandler(Serving serving) {
        this.serving = serving;
    }

    @Override
    public void handle(Request request) {
        TraverseRequest req = TraverseRequest.decode(request.frame().body(), request.frame().payloadOffset());
        validate(req);
        if (!serving.routes().admit(request, serving.locate(req.from()), req.from(),
                () -> Guard.run(serving.ctx().nodeId(), this, request))) {
            return;
        }
        request.action("gather");
        new TraverseGather(serving, request, req).run();
    }

    private void validate(TraverseRequest req) {
        if (req.limit() < 1) {
            Validation.fail("traverse limit must be at least 1, was " + req.limit());
        }
        if (req.from().length > serving.ctx().limits().maxKeyBytes()) {
            Validation.fail("traverse from-key is " + req.from().length + " bytes: keys must be 1.."
                    + serving.ctx().limits().maxKeyBytes() + " bytes");
        }
        if (req.toExclusive() != null) {
            Validation.key(serving.ctx(), req.toExclusive());
            if (Keys.compare(req.from(), req.toExclusive()) >= 0) {
                Validation.fail("traverse from-key " + Keys.render(req.from()) + " must sort before the end key "
                        + Keys.render(req.toExclusive()));
            }
        }
    }
}
