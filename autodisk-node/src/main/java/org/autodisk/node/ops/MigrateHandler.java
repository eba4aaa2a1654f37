package org.autodisk.node.ops;

import org.autodisk.core.cluster.MigrationCommand;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;

/** MIGRATE: an administrator's migration command, committed by the node asked; answers the migration's state. */
final class MigrateHandler implements OperationHandler {

    private final String nodeId;
    private final MigrationAdmin admin;

    MigrateHandler(String nodeId, MigrationAdmin admin) {
        this.nodeId = nodeId;
        this.admin = admin;
    }

    @Override
    public void handle(Request request) {
        MigrationCommand command;
        try {
            command = MigrationCommand.fromJson(request.frame().body());
        } catch (RuntimeException e) {
            throw new ProtocolException(Status.MALFORMED, "MIGRATE needs a JSON migration command: " + e.getMessage());
        }
        admin.apply(command).whenComplete((status, error) -> {
            if (error == null) {
                Guard.run(nodeId, r -> r.reply(Responses.bytesResult(status.toJson())), request);
                return;
            }
            Guard.failed(request, error, "migration command not done");
        });
    }
}
