package org.autodisk.node.data;

import org.autodisk.node.directory.Placement;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.rules.Decision;
import org.autodisk.rules.RequestEvent;

/**
 * The shape every keyed stream operation shares, written once: decode the body, validate it, locate the key's
 * range in the directory, build the rule event, and let the rules decide - a forward is carried out here, a refusal
 * or an impossible decision is answered by the gate - so that an operation only says how it decodes, what its
 * event is, and how it is served here.
 *
 * @param <R> the decoded request body
 */
abstract class KeyedOperation<R> implements OperationHandler {

    final Serving serving;

    KeyedOperation(Serving serving) {
        this.serving = serving;
    }

    @Override
    public final void handle(Request request) {
        R req = decode(request.frame().body());
        byte[] key = key(req);
        validate(req);
        Placement placement = serving.locate(key);
        RequestEvent event = event(request, req, placement);
        Decision decision = serving.gate().decide(request, event, placement);
        if (decision == null) {
            return;
        }
        if (decision.kind() == Decision.Kind.FORWARD) {
            serving.router().forwardToOwner(request, placement, key);
            return;
        }
        serve(request, req, placement.range(), decision);
    }

    /**
     * Decodes the body.
     *
     * @param body the frame body
     * @return the request
     */
    abstract R decode(byte[] body);

    /**
     * Returns the request's key.
     *
     * @param req the request
     * @return its key
     */
    abstract byte[] key(R req);

    /**
     * Checks the request against the limits; by default its key.
     *
     * @param req the request
     */
    void validate(R req) {
        Validation.key(serving.ctx(), key(req));
    }

    /**
     * Builds the event the rules decide.
     *
     * @param request   the request in the node
     * @param req       its body
     * @param placement where the key's request goes
     * @return the event
     */
    abstract RequestEvent event(Request request, R req, Placement placement);

    /**
     * Serves the request here, as the rules decided.
     *
     * @param request  the request
     * @param req      its body
     * @param range    the key's range (owned here)
     * @param decision the rules' decision to handle it locally
     */
    abstract void serve(Request request, R req, RangeDescriptor range, Decision decision);
}
