package org.autodisk.node.ops;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.autodisk.core.cluster.MemberStatus;
import org.autodisk.core.cluster.MembersReport;
import org.autodisk.core.cluster.NodeStatus;
import org.autodisk.core.protocol.Responses;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MetadataStatus;

/**
 * MEMBERS: every member with the state the metadata records ({@code unknown} before the cluster is created) and
 * what its metadata replica is now, asked of each by NODE_INFO ({@code unreachable} if it does not answer).
 */
final class MembersHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Supplier<NodeStatus> self;

    MembersHandler(NodeContext ctx, Supplier<NodeStatus> self) {
        this.ctx = ctx;
        this.self = self;
    }

    @Override
    public void handle(Request request) {
        NodeInfos.gather(ctx, self).thenAccept(nodes -> {
            MetaState meta = ctx.metadata().current();
            MetadataStatus here = ctx.metadata().status();
            List<MemberStatus> members = nodes.stream().map(n -> member(meta, here.voters(), n)).toList();
            request.reply(Responses.bytesResult(new MembersReport(ctx.nodeId(), meta.version(), here.leader(),
                    members, here.group(), meta.bootstrapped() ? meta.directory() : null, fanout(meta)).toJson()));
        });
    }

    /** The cluster's Fat-Btree fanout: as created, else (not recorded) the one this node runs. */
    private int fanout(MetaState meta) {
        return meta.bootstrapped() && meta.created().fanout() > 0 ? meta.created().fanout() : ctx.directory().fanout();
    }

    private static MemberStatus member(MetaState meta, List<String> voters, NodeStatus n) {
        Member recorded = meta.member(n.id());
        String state = recorded == null ? "unknown" : recorded.state().name().toLowerCase(Locale.ROOT);
        String replica = n.reachable() ? n.metadata().getOrDefault("role", "unknown") : "unreachable";
        return new MemberStatus(n.id(), n.role(), n.address(), state, voters.contains(n.id()),
                n.metadata().getOrDefault("address", ""), replica);
    }
}
