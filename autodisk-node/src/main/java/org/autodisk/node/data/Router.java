package org.autodisk.node.data;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.Request;
import org.autodisk.node.peer.PeerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a rule's decision to forward: sends the request node-to-node to the owner of its key, stamped with
 * the range, epoch and metadata version it was routed by ({@link RouteCheck}), and relays the reply back. The hop
 * count in the frame stops forwarding loops; a peer that cannot be reached is reported to the rules as suspected.
 */
final class Router {

    private static final Logger LOG = LoggerFactory.getLogger(Router.class);

    private final NodeContext ctx;
    private final RouteCheck routes;

    Router(NodeContext ctx, RouteCheck routes) {
        this.ctx = ctx;
        this.routes = routes;
    }

    /**
     * Forwards the request to the next hop of its key, stamped with what this node routed it by, and relays the
     * answer; a STALE_MAP answer routes it again once this node has caught up.
     *
     * @param request   the request
     * @param placement where the key's request goes
     * @param key       the key
     * @param again     routes the request again from the start (on a worker)
     */
    void forwardToOwner(Request request, Placement placement, byte[] key, Runnable again) {
        Frame stamped = request.frame().routed(placement.stamp());
        forward(request, placement.nextHop(), stamped, () -> "key " + Keys.render(key))
                .thenAccept(resp -> {
                    if (!routes.rerouted(request, resp, again)) {
                        request.relay(resp);
                    }
                });
    }

    /**
     * Sends a request frame to another node, failing the request on hop limit or peer failure.
     *
     * @param request the request being served
     * @param target  the node to ask
     * @param frame   the frame to send (the request's own or a sub-request)
     * @param what    what is asked, for error messages (built only if one is needed)
     * @return the peer's response; completes only on success (failures are replied here and never complete it)
     */
    CompletableFuture<Frame> forward(Request request, String target, Frame frame, Supplier<String> what) {
        CompletableFuture<Frame> result = new CompletableFuture<>();
        int hops = request.frame().hops();
        if (hops >= ctx.hopLimit()) {
            request.replyError(Status.HOP_LIMIT_EXCEEDED, "request for " + what.get() + " was forwarded " + hops
                    + " times (forward.hop-limit = " + ctx.hopLimit() + "); the nodes' directory maps disagree");
            return result;
        }
        request.action("forward:" + target);
        ctx.metrics().forwarded();
        long t0 = System.nanoTime();
        ctx.peers().send(target, frame.forwarded(0, hops + 1)).whenComplete((resp, err) -> {
            request.component("forward", System.nanoTime() - t0);
            if (err == null) {
                result.complete(resp);
            } else {
                replyPeerFailure(request, target, err);
            }
        });
        return result;
    }

    /** A write: its forward may have been carried out even if no answer came. */
    private static boolean mutates(Request request) {
        int op = request.frame().opcode();
        return op == Opcode.INSERT.code() || op == Opcode.DELETE.code() || op == Opcode.MIGRATION_WRITE.code();
    }

    private void replyPeerFailure(Request request, String target, Throwable err) {
        Throwable cause = err instanceof java.util.concurrent.CompletionException && err.getCause() != null
                ? err.getCause() : err;
        if (cause instanceof PeerException pe) {
            if (pe.status() == Status.NODE_UNAVAILABLE || pe.status() == Status.TIMEOUT) {
                ctx.rules().suspect(target, pe.getMessage());
            }
            if (pe.written() && mutates(request)) {
                request.replyError(Status.OUTCOME_UNKNOWN, "node " + ctx.nodeId() + " forwarded the write to " + target
                        + ", which may or may not have carried it out (" + pe.getMessage() + "); retrying an insert "
                        + "or delete is safe");
                return;
            }
            request.replyError(pe.status(), pe.getMessage());
        } else {
            LOG.warn("{}: forwarding to {} failed", ctx.nodeId(), target, cause);
            ctx.rules().suspect(target, String.valueOf(cause));
            request.replyError(Status.NODE_UNAVAILABLE, "forwarding to " + target + " failed: " + cause);
        }
    }
}
