package org.autodisk.node.data;

import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Guard;
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
        Frame frame = request.frame();
        R req = decode(frame.body(), frame.payloadOffset());
        byte[] key = key(req);
        validate(req);
        Placement placement = serving.locate(key);
        if (!serving.routes().admit(request, placement, key, () -> again(request))) {
            return;
        }
        RequestEvent event = event(request, req, placement);
        Decision decision = serving.gate().decide(request, event, placement);
        if (decision == null) {
            return;
        }
        if (decision.kind() == Decision.Kind.FORWARD) {
            serving.router().forwardToOwner(request, placement, key, () -> again(request));
            return;
        }
        if (serving.rangeReady(request, placement.range().id(), key, () -> again(request))) {
            serving.services().requests().served(placement.range().id());
            serve(request, req, placement.range(), decision);
        }
    }

    /**
     * Takes the request again from the start: after this node caught up with a newer map, or when its map changed
     * between taking a write and logging it.
     *
     * @param request the request
     */
    final void again(Request request) {
        Guard.run(serving.ctx().nodeId(), this, request);
    }

    /**
     * Checks, right before a write enters the log, that this node's map still gives it the key's range at the epoch
     * the write was decided with; if the map changed meanwhile, takes the request again (it is then forwarded).
     * The log nodes refuse appends of an older epoch than they have seen, which fences a write that is already
     * being logged when the range moves.
     *
     * @param request the request
     * @param range   the range the write was decided with
     * @param key     the key
     * @return the key's range now (after a split, the half that holds the key), to log the write with; or
     *         {@code null} if the request was taken again or answered
     */
    final RangeDescriptor ownedNow(Request request, RangeDescriptor range, byte[] key) {
        Placement now = serving.locate(key);
        if (now.servedHere() && now.range().epoch() == range.epoch()) {
            return now.range();
        }
        if (request.reroute() > RouteCheck.MAX_REROUTES) {
            request.replyError(Status.NODE_UNAVAILABLE, "node " + serving.ctx().nodeId() + ": the owner of key "
                    + Keys.render(key) + " kept changing while the write was routed; retry");
        } else {
            again(request);
        }
        return null;
    }

    /**
     * Decodes the body.
     *
     * @param body   the frame body
     * @param offset where the request starts in it (after a route stamp)
     * @return the request
     */
    abstract R decode(byte[] body, int offset);

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
