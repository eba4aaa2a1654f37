package org.autodisk.node.data;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.ledger.LedgerException;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.Request;
import org.autodisk.node.peer.PeerException;
import org.autodisk.node.rangelog.WriteAheadLog;

/**
 * What the stream operations of a data node share.
 *
 * @param ctx      what every node has
 * @param services the data node's services
 * @param router   forwards to owners
 * @param gate     asks the rules
 * @param routes   checks what routed requests were routed with
 */
record Serving(NodeContext ctx, DataServices services, Router router, RuleGate gate, RouteCheck routes) {

    static Serving of(NodeContext ctx, DataServices services, Duration routeWait) {
        RouteCheck routes = new RouteCheck(ctx, routeWait);
        return new Serving(ctx, services, new Router(ctx, routes), new RuleGate(ctx, services.wal()), routes);
    }

    /**
     * Checks that a range's log is recovered and replayed here (else the store may lack acknowledged writes) and that
     * its owner holds its lease; if not, runs {@code again} on a worker once it is (or at once when the range changed
     * as the request came in: it is routed again), or answers NODE_UNAVAILABLE if it does not get there in time.
     *
     * @param request the request
     * @param rangeId the key's range
     * @param key     the key
     * @param again   takes the request up again
     * @return true to serve now; false if it was answered or will be taken up again
     */
    boolean rangeReady(Request request, int rangeId, byte[] key, Runnable again) {
        CompletableFuture<Void> ready = services.wal().ready(rangeId, key);
        if (ready.isDone() && !ready.isCompletedExceptionally()) {
            return true;
        }
        ready.whenComplete((v, err) -> {
            RuntimeException e = err == null ? null : LedgerException.unwrap(err);
            if (err == null || e instanceof WriteAheadLog.MovedAway && request.reroute() <= RouteCheck.MAX_REROUTES) {
                ctx.queue().execute(again);
            } else {
                request.replyError(e instanceof PeerException pe ? pe.status() : Status.NODE_UNAVAILABLE,
                        e.getMessage());
            }
        });
        return false;
    }

    /**
     * Locates a key in this node's directory.
     *
     * @param key the key
     * @return its placement
     * @throws ProtocolException NODE_UNAVAILABLE while this node does not know the cluster's ranges
     */
    Placement locate(byte[] key) {
        if (!ctx.directory().ready()) {
            throw new ProtocolException(Status.NODE_UNAVAILABLE, ctx.metadataNotReady());
        }
        return ctx.directory().locate(key);
    }
}
