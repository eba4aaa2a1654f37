package org.autodisk.node.migration;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.Metadata;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Guard;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.rangelog.WriteAheadLog;
import org.autodisk.node.wire.MigrationReadRequest;

/**
 * MIGRATION_READ on the source: the next chunk of the moving range's snapshot - once the range's log is recovered
 * and replayed here, so that a source that restarted never hands out a snapshot missing acknowledged writes (the
 * target keeps the ledger positions of its first snapshot and catches up only from there). A migration this node does
 * not know yet (the target saw it start first) is looked for again once this node's metadata caught up with the
 * leader's.
 */
final class MigrationReadHandler implements OperationHandler {

    private final String self;
    private final Metadata metadata;
    private final SourceSnapshots snapshots;
    private final WriteAheadLog wal;
    private final Duration wait;

    MigrationReadHandler(String self, Metadata metadata, SourceSnapshots snapshots, WriteAheadLog wal, Duration wait) {
        this.self = self;
        this.metadata = metadata;
        this.snapshots = snapshots;
        this.wal = wal;
        this.wait = wait;
    }

    @Override
    public void handle(Request request) {
        MigrationReadRequest req = MigrationReadRequest.decode(request.frame().body());
        if (metadata.current().migration(req.migrationId()) != null) {
            read(request, req);
            return;
        }
        // the target may have seen the migration start before this node applied it: catch up with the leader first
        metadata.committedVersion(wait).thenCompose(v -> metadata.awaitVersion(v, wait))
                .whenComplete((state, error) -> Guard.run(self, q -> read(q, req), request));
    }

    private void read(Request request, MigrationReadRequest req) {
        MetaState s = metadata.current();
        MigrationInfo m = s.migration(req.migrationId());
        RangeDescriptor r = m == null ? null : s.range(m.rangeId());
        if (r == null) {
            request.reply(snapshots.read(s, req).encode());
            return;
        }
        wal.ready(r.id(), r.low()).whenComplete((ready, error) -> {
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                Guard.failed(request, new ProtocolException(Status.NODE_UNAVAILABLE, self + " recovers the log of "
                        + "range " + r.id() + " before it copies it: " + cause.getMessage()), "");
                return;
            }
            Guard.run(self, q -> q.reply(snapshots.read(metadata.current(), req).encode()), request);
        });
    }
}
