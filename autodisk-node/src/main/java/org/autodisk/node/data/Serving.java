package org.autodisk.node.data;

import java.time.Duration;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.directory.Placement;
import org.autodisk.node.ops.NodeContext;

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
