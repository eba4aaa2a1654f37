package org.autodisk.node.data;

import org.autodisk.node.ops.NodeContext;

/**
 * What the stream operations of a data node share.
 *
 * @param ctx      what every node has
 * @param services the data node's services
 * @param router   forwards to owners
 * @param gate     asks the rules
 */
record Serving(NodeContext ctx, DataServices services, Router router, RuleGate gate) {

    static Serving of(NodeContext ctx, DataServices services) {
        Router router = new Router(ctx);
        return new Serving(ctx, services, router, new RuleGate(ctx, services.wal()));
    }
}
