package org.autodisk.node.ops;

import org.autodisk.core.cluster.MigrationsReport;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.MetaState;

/** MIGRATIONS: the migrations under way, as the committed metadata of the node asked records them. */
final class MigrationsHandler implements OperationHandler {

    private final NodeContext ctx;

    MigrationsHandler(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handle(Request request) {
        MetaState s = ctx.metadata().current();
        if (!s.bootstrapped()) {
            request.replyError(Status.NODE_UNAVAILABLE, ctx.metadataNotReady());
            return;
        }
        request.reply(Responses.bytesResult(new MigrationsReport(ctx.nodeId(), s.version(), s.migrations().stream()
                .map(m -> MigrationAdmin.toStatus(s, m)).toList()).toJson()));
    }
}
