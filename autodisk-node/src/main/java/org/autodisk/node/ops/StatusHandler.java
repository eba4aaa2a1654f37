package org.autodisk.node.ops;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.failure.FailureDetector;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.RangeUsage;

/**
 * STATUS: the cluster map, with every member's own facts gathered by NODE_INFO in parallel, its state as the metadata
 * records it, and how long ago this node's failure detector last heard from it.
 */
final class StatusHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Supplier<NodeStatus> self;
    private final FailureDetector detector;

    StatusHandler(NodeContext ctx, Supplier<NodeStatus> self, FailureDetector detector) {
        this.ctx = ctx;
        this.self = self;
        this.detector = detector;
    }

    @Override
    public void handle(Request request) {
        NodeInfos.gather(ctx, self).thenAccept(gathered -> {
            MetaState meta = ctx.metadata().current();
            List<NodeStatus> nodes = gathered.stream().map(n -> heard(meta, n)).toList();
            ClusterStatus status = new ClusterStatus(ctx.nodeId(), meta.bootstrapped() ? meta.directory()
                    : "(not created yet)", meta.version(), nodes,
                    meta.ranges().stream().map(r -> toStatus(r, nodes, null)).toList());
            request.reply(Responses.bytesResult(status.toJson()));
        });
    }

    private NodeStatus heard(MetaState meta, NodeStatus n) {
        Member m = meta.member(n.id());
        String state = m == null ? "" : m.state().name().toLowerCase(Locale.ROOT);
        return n.heard(state, n.id().equals(ctx.nodeId()) ? 0 : detector.lastHeardMs(n.id()));
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
