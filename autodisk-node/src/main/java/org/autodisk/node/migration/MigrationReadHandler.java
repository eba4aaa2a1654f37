package org.autodisk.node.migration;

import org.autodisk.node.meta.Metadata;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.MigrationReadRequest;

/** MIGRATION_READ on the source: the next chunk of the moving range's snapshot. */
final class MigrationReadHandler implements OperationHandler {

    private final Metadata metadata;
    private final SourceSnapshots snapshots;

    MigrationReadHandler(Metadata metadata, SourceSnapshots snapshots) {
        this.metadata = metadata;
        this.snapshots = snapshots;
    }

    @Override
    public void handle(Request request) {
        MigrationReadRequest req = MigrationReadRequest.decode(request.frame().body());
        request.reply(snapshots.read(metadata.current(), req).encode());
    }
}
