package org.autodisk.node.ops;

import java.util.concurrent.CompletableFuture;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.directory.KeyRange;
import org.autodisk.node.peer.PeerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides where a keyed request is served: here if this node owns the key in its directory copy, else the
 * owner, node-to-node, with the reply relayed back. The hop count in the frame stops forwarding loops.
 */
final class Router {

    private static final Logger LOG = LoggerFactory.getLogger(Router.class);

    private final NodeContext ctx;

    Router(NodeContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Forwards the request if another node owns the key.
     *
     * @param request the request
     * @param key     its key
     * @return true if the request was forwarded (the reply will be relayed), false if it is served here
     */
    boolean forwardIfRemote(Request request, byte[] key) {
        return localRange(request, key) == null;
    }

    /**
     * Returns the key's range if this node owns it, else forwards the request to the owner.
     *
     * @param request the request
     * @param key     its key
     * @return the range if served here, {@code null} if the request was forwarded
     */
    KeyRange localRange(Request request, byte[] key) {
        KeyRange range = ctx.directory().current().lookup(key);
        if (range.owner().equals(ctx.nodeId())) {
            return range;
        }
        forward(request, range.owner(), request.frame(), "key " + Keys.render(key)).thenAccept(request::relay);
        return null;
    }

    /**
     * Sends a request frame to another node, failing the request on hop limit or peer failure.
     *
     * @param request the request being served
     * @param target  the node to ask
     * @param frame   the frame to send (the request's own or a sub-request)
     * @param what    what is asked, for error messages
     * @return the peer's response; completes only on success (failures are replied here and never complete it)
     */
    CompletableFuture<Frame> forward(Request request, String target, Frame frame, String what) {
        CompletableFuture<Frame> result = new CompletableFuture<>();
        int hops = request.frame().hops();
        if (hops >= ctx.hopLimit()) {
            request.replyError(Status.HOP_LIMIT_EXCEEDED, "request for " + what + " was forwarded " + hops
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

    private void replyPeerFailure(Request request, String target, Throwable err) {
        Throwable cause = err instanceof java.util.concurrent.CompletionException && err.getCause() != null
                ? err.getCause() : err;
        if (cause instanceof PeerException pe) {
            request.replyError(pe.status(), pe.getMessage());
        } else {
            LOG.warn("{}: forwarding to {} failed", ctx.nodeId(), target, cause);
            request.replyError(Status.NODE_UNAVAILABLE, "forwarding to " + target + " failed: " + cause);
        }
    }
}
