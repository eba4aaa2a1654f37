package org.autodisk.node.data;

import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.RouteStamp;
import org.autodisk.core.protocol.StaleMap;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.Request;

/**
 * Routing by epoch, both sides (TiKV's region epoch check is the model). A receiver checks the {@link RouteStamp}
 * of a routed request when it takes it, range by range:
 * <ul>
 *   <li>it serves the key's range and the sender routed by the same range at the same epoch, or an older one: it
 *       serves (epochs rise on every owner change, so the same epoch means the same owner, whatever else changed
 *       in the sender's newer map);</li>
 *   <li>the sender routed by a newer map and this node does not serve the key, or saw the key's range at a newer
 *       epoch: this node first waits until it has applied the sender's version (bounded, shorter than a forward's
 *       timeout) and takes the request again;</li>
 *   <li>this node's map is newer and it does not serve the key: it answers {@link Status#STALE_MAP} with the range
 *       holding the key now.</li>
 * </ul>
 * A sender that gets STALE_MAP waits until it has applied that version and routes the request again, at most
 * {@link #MAX_REROUTES} times. A node never serves a key its map does not give it, so a stale map costs time, never
 * a wrong answer. Requests waiting for the metadata count against the queue's capacity.
 */
final class RouteCheck {

    /** How often one request is routed again after STALE_MAP answers before the answer is relayed. */
    static final int MAX_REROUTES = 3;

    private final NodeContext ctx;
    private final Duration wait;
    private final AtomicInteger parked = new AtomicInteger();
    private final Counter staleReplies;
    private final Counter metadataWaits;
    private final Counter reroutes;

    /**
     * Creates the check of a node.
     *
     * @param ctx  the node
     * @param wait how long a request may wait for this node's metadata (less than a forward's timeout)
     */
    RouteCheck(NodeContext ctx, Duration wait) {
        this.ctx = ctx;
        this.wait = wait;
        this.staleReplies = ctx.metrics().counter(MetricNames.ROUTE_STALE_REPLIES,
                "routed requests answered STALE_MAP: the sender's map was older and the key is not served here");
        this.metadataWaits = ctx.metrics().counter(MetricNames.ROUTE_METADATA_WAITS,
                "routed requests that waited for this node's metadata to reach the sender's version");
        this.reroutes = ctx.metrics().counter(MetricNames.ROUTE_REROUTES,
                "requests routed again after a STALE_MAP answer");
    }

    /**
     * Checks a request as this node takes it.
     *
     * @param request   the request
     * @param placement where this node's map puts its key
     * @param key       the key, for messages
     * @param again     takes the request again (on a worker), once this node has caught up
     * @return true to serve or forward it now; false if it was answered or will be taken again
     */
    boolean admit(Request request, Placement placement, byte[] key, Runnable again) {
        RouteStamp stamp = request.frame().stamp();
        if (stamp == null) {
            return true;
        }
        if (placement.servedHere() && !newerRangeThanMine(stamp, placement)) {
            return true;
        }
        if (stamp.version() > placement.version()) {
            catchUp(request, stamp.version(), placement.version(), again);
            return false;
        }
        if (placement.servedHere() || placement.version() == stamp.version() || placement.range() == null) {
            return true;
        }
        staleReplies.increment();
        request.reply(Responses.staleMap(new StaleMap("node " + ctx.nodeId() + " does not serve key "
                + Keys.render(key) + ": the sender routed it by metadata v" + stamp.version() + " to range "
                + stamp.rangeId() + " epoch " + stamp.epoch() + "; by v" + placement.version() + " it is in "
                + placement.range(), placement.version(), placement.range().toStatus(-1, -1, -1, -1))));
        return false;
    }

    /** Whether the sender saw the key's range (same id) at a newer epoch than this node's map has it. */
    private static boolean newerRangeThanMine(RouteStamp stamp, Placement placement) {
        return placement.range() != null && stamp.rangeId() == placement.range().id()
                && stamp.epoch() > placement.range().epoch();
    }

    private void catchUp(Request request, long version, long mine, Runnable again) {
        if (parked.incrementAndGet() > ctx.queue().capacity()) {
            parked.decrementAndGet();
            request.replyError(Status.OVERLOADED, "node " + ctx.nodeId() + " is overloaded: " + ctx.queue().capacity()
                    + " requests are waiting for its metadata to catch up (queue.capacity); retry later");
            return;
        }
        metadataWaits.increment();
        ctx.metadata().awaitVersion(version, wait).whenComplete((state, error) -> {
            parked.decrementAndGet();
            if (error == null) {
                ctx.queue().execute(again);
            } else {
                request.replyError(Status.NODE_UNAVAILABLE, "node " + ctx.nodeId() + " routes by metadata v" + mine
                        + " and the request was routed by v" + version + ": " + cause(error).getMessage());
            }
        });
    }

    /**
     * Handles a STALE_MAP answer to a request this node forwarded: waits for this node's metadata to reach the
     * answerer's version, then routes the request again.
     *
     * @param request the request
     * @param resp    the answer of the node it was forwarded to
     * @param again   routes the request again (on a worker)
     * @return true if handled here; false if the answer is to be relayed (not STALE_MAP, or too many reroutes)
     */
    boolean rerouted(Request request, Frame resp, Runnable again) {
        byte[] body = resp.body();
        if (body.length == 0 || (body[0] & 0xFF) != Status.STALE_MAP.code() || request.reroute() > MAX_REROUTES) {
            return false;
        }
        reroutes.increment();
        StaleMap stale;
        try {
            stale = Responses.parseStaleMap(body);
        } catch (RuntimeException e) {
            return false;
        }
        ctx.metadata().awaitVersion(stale.version(), wait).whenComplete((state, error) -> {
            if (error == null) {
                ctx.queue().execute(again);
            } else {
                request.relay(resp);
            }
        });
        return true;
    }

    private static Throwable cause(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }
}
