package org.autodisk.node.ops;

import java.util.Map;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.protocol.Responses;

/** NODE_INFO: this node's own facts, as JSON; other nodes ask for it to build STATUS. */
final class NodeInfoHandler implements OperationHandler {

    private final NodeContext ctx;

    NodeInfoHandler(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handle(Request request) {
        request.reply(Responses.bytesResult(ClusterStatus.write(selfStatus(ctx))));
    }

    static NodeStatus selfStatus(NodeContext ctx) {
        long streams = ctx.store() == null ? 0 : ctx.store().count();
        Map<String, Double> metrics = new java.util.LinkedHashMap<>(ctx.metrics().snapshot());
        if (ctx.wal() != null) {
            metrics.putAll(ctx.wal().metrics());
        }
        if (ctx.logStore() != null) {
            var stats = ctx.logStore().stats();
            metrics.put("log.records", (double) stats.records());
            metrics.put("log.fsyncs", (double) stats.fsyncs());
            metrics.put("log.records-per-fsync", stats.recordsPerFsync());
            ctx.logStore().streams().forEach(s -> metrics.put("log.last-lsn." + s, (double) ctx.logStore().lastLsn(s)));
        }
        if (ctx.catchUp() != null) {
            metrics.putAll(ctx.catchUp().metrics());
        }
        return new NodeStatus(ctx.nodeId(), ctx.self().role().label(), ctx.self().hostPort(), true, streams, metrics);
    }
}
