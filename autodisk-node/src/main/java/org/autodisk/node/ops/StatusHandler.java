package org.autodisk.node.ops;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.wire.PeerOp;

/** STATUS: the cluster map, with every member's own facts gathered by NODE_INFO in parallel. */
final class StatusHandler implements OperationHandler {

    private static final long PEER_WAIT_MS = 2000;

    private final NodeContext ctx;
    private final Supplier<NodeStatus> self;

    StatusHandler(NodeContext ctx, Supplier<NodeStatus> self) {
        this.ctx = ctx;
        this.self = self;
    }

    @Override
    public void handle(Request request) {
        List<CompletableFuture<NodeStatus>> all = new ArrayList<>();
        for (ClusterMember m : ctx.members()) {
            all.add(m.id().equals(ctx.nodeId()) ? CompletableFuture.completedFuture(self.get())
                    : ask(m));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenRun(() -> {
            MetaState meta = ctx.metadata().current();
            List<NodeStatus> nodes = all.stream().map(CompletableFuture::join).toList();
            ClusterStatus status = new ClusterStatus(ctx.nodeId(), meta.bootstrapped() ? meta.directory()
                    : "(not created yet)", meta.version(), nodes,
                    meta.ranges().stream().map(r -> toStatus(r, nodes)).toList());
            request.reply(Responses.bytesResult(status.toJson()));
        });
    }

    /**
     * Describes a range for clients.
     *
     * @param r     the range
     * @param nodes what the members said, for the backup lag its first log node reports
     * @return the range's status
     */
    static RangeStatus toStatus(RangeDescriptor r, List<NodeStatus> nodes) {
        List<String> logs = r.logNodes();
        long lag = logs.isEmpty() || r.backup() == null ? -1 : nodes.stream().filter(n -> n.id().equals(logs.get(0)))
                .map(n -> n.metrics().get(MetricNames.perStream(MetricNames.BACKUP_LAG, r.owner())))
                .filter(v -> v != null).mapToLong(Double::longValue).findFirst().orElse(-1);
        HexFormat hex = HexFormat.of();
        return new RangeStatus(r.id(), hex.formatHex(r.low()), r.high() == null ? null : hex.formatHex(r.high()),
                r.owner(), r.epoch(), r.backup(), logs, lag, r.generation(),
                r.state().name().toLowerCase(Locale.ROOT), -1, -1);
    }

    private CompletableFuture<NodeStatus> ask(ClusterMember m) {
        NodeStatus unreachable = new NodeStatus(m.id(), m.role().label(), m.hostPort(), false, 0, Map.of());
        return ctx.peers().send(m.id(), PeerOp.NODE_INFO.request(new byte[0]))
                .thenApply(StatusHandler::parse)
                .completeOnTimeout(unreachable, PEER_WAIT_MS, TimeUnit.MILLISECONDS)
                .exceptionally(e -> unreachable);
    }

    private static NodeStatus parse(Frame resp) {
        if (Responses.status(resp.body()) != Status.OK) {
            throw new IllegalStateException(Responses.errorMessage(resp.body()));
        }
        return ClusterStatus.read(Responses.parseBytes(resp.body()), NodeStatus.class);
    }
}
