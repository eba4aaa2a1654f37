package org.autodisk.node.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.wire.PeerOp;

/** Every member's own facts, asked by NODE_INFO in parallel; a member that does not answer is unreachable. */
final class NodeInfos {

    /** How long a member has to answer. */
    static final long PEER_WAIT_MS = 2000;

    private NodeInfos() {
    }

    /**
     * Asks every member.
     *
     * @param ctx  this node
     * @param self this node's own facts
     * @return every member's facts, in member order, once all answered or timed out
     */
    static CompletableFuture<List<NodeStatus>> gather(NodeContext ctx, Supplier<NodeStatus> self) {
        List<CompletableFuture<NodeStatus>> all = new ArrayList<>();
        for (ClusterMember m : ctx.members()) {
            all.add(m.id().equals(ctx.nodeId()) ? CompletableFuture.completedFuture(self.get()) : ask(ctx, m));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> all.stream().map(CompletableFuture::join).toList());
    }

    private static CompletableFuture<NodeStatus> ask(NodeContext ctx, ClusterMember m) {
        NodeStatus unreachable = new NodeStatus(m.id(), m.role().label(), m.hostPort(), false, 0, Map.of());
        return ctx.peers().send(m.id(), PeerOp.NODE_INFO.request(new byte[0]))
                .thenApply(NodeInfos::parse)
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
