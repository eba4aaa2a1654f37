package org.autodisk.node.ops;

import java.util.List;
import java.util.function.Supplier;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.RangeUsage;

/** STATUS: the cluster map, with every member's own facts gathered by NODE_INFO in parallel. */
final class StatusHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Supplier<NodeStatus> self;

    StatusHandler(NodeContext ctx, Supplier<NodeStatus> self) {
        this.ctx = ctx;
        this.self = self;
    }

    @Override
    public void handle(Request request) {
        NodeInfos.gather(ctx, self).thenAccept(nodes -> {
            MetaState meta = ctx.metadata().current();
            ClusterStatus status = new ClusterStatus(ctx.nodeId(), meta.bootstrapped() ? meta.directory()
                    : "(not created yet)", meta.version(), nodes,
                    meta.ranges().stream().map(r -> toStatus(r, nodes, null)).toList());
            request.reply(Responses.bytesResult(status.toJson()));
        });
    }

    /**
     * Describes a range for clients.
     *
     * @param r     the range
     * @param nodes what the members said, for the backup lag: the largest any log node that copies the owner's
     *              ledgers reports
     * @param usage what its owner holds of it, or {@code null} if unknown
     * @return the range's status
     */
    static RangeStatus toStatus(RangeDescriptor r, List<NodeStatus> nodes, RangeUsage usage) {
        long lag = r.logNodes().isEmpty() || r.backup() == null ? -1 : nodes.stream()
                .map(n -> n.metrics().get(MetricNames.perStream(MetricNames.BACKUP_LAG, r.owner())))
                .filter(v -> v != null).mapToLong(Double::longValue).max().orElse(-1);
        return r.toStatus(lag, usage == null ? -1 : usage.keys(), usage == null ? -1 : usage.bytes(),
                usage == null ? -1 : usage.requestsPerSecond());
    }

}
