package org.autodisk.node.ops;

import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.Limits;
import org.autodisk.core.cluster.MigrationCommand;
import org.autodisk.core.cluster.MigrationStatus;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;

/**
 * An administrator's migration commands, through the metadata: start (optionally after a split; {@code host-start}
 * for a host-driven copy; {@code backup-start} to fill a missing backup), pause, resume, re-throttle, abort. Every
 * refusal is an INVALID_ARGUMENT that names what was found, and nothing changed.
 */
final class MigrationAdmin {

    private final NodeContext ctx;
    private final Splits splits;

    MigrationAdmin(NodeContext ctx, Splits splits) {
        this.ctx = ctx;
        this.splits = splits;
    }

    CompletableFuture<MigrationStatus> apply(MigrationCommand c) {
        MetaState s = ctx.metadata().current();
        if (!s.bootstrapped()) {
            throw new ProtocolException(Status.NODE_UNAVAILABLE, ctx.metadataNotReady());
        }
        String action = c.action() == null ? "" : c.action();
        if (action.equals("start") || action.equals("host-start") || action.equals("backup-start")) {
            return start(s, c, action);
        }
        MigrationInfo m = c.id() == null ? null : s.migration(c.id());
        if (m == null) {
            throw invalid("there is no migration " + c.id() + " under way");
        }
        return switch (action) {
            case "pause" -> commit(new MetaCommand.ControlMigration(m.id(), true, m.rateBytes()), m.id());
            case "resume" -> commit(new MetaCommand.ControlMigration(m.id(), false, m.rateBytes()), m.id());
            case "rate" -> commit(new MetaCommand.ControlMigration(m.id(), m.paused(), rate(c)), m.id());
            case "abort" -> commit(new MetaCommand.EndMigration(m.id(), true, "aborted by an administrator through "
                    + ctx.nodeId()), m.id());
            default -> throw invalid("unknown migration action '" + action + "': expected start, host-start, "
                    + "backup-start, pause, resume, rate or abort");
        };
    }

    private static long rate(MigrationCommand c) {
        if (c.rateBytes() == null || c.rateBytes() < 0) {
            throw invalid("a rate in bytes/s (0: unthrottled) is needed, got " + c.rateBytes());
        }
        return c.rateBytes();
    }

    private CompletableFuture<MigrationStatus> start(MetaState s, MigrationCommand c, String action) {
        if (c.target() == null || c.target().isBlank()) {
            throw invalid("a migration needs a target data node");
        }
        RangeDescriptor r = c.rangeId() != null ? s.range(c.rangeId()) : c.key() != null ? s.rangeOf(hex(c.key()))
                : null;
        if (r == null) {
            throw invalid(c.rangeId() != null ? "there is no range " + c.rangeId() : "name the range by id or key");
        }
        long rate = c.rateBytes() == null ? MigrationInfo.DEFAULT_RATE : rate(c);
        boolean backup = action.equals("backup-start");
        String by = action.equals("host-start") ? "host" : "admin";
        if (c.splitAt() == null) {
            return startOn(r, c.target(), rate, by, backup);
        }
        if (backup) {
            throw invalid("a backup fill copies a whole range: it takes no split key");
        }
        byte[] at = hex(c.splitAt());
        return splits.split(r, at).thenCompose(halves -> startOn(ctx.metadata().current().rangeOf(at), c.target(),
                rate, by, false));
    }

    private CompletableFuture<MigrationStatus> startOn(RangeDescriptor r, String target, long rate, String by,
            boolean backup) {
        // a fill on a range with a backup moves the backup: the target takes its place once caught up
        String replaces = backup && !r.backups().isEmpty() ? r.backups().get(0) : null;
        return commit(new MetaCommand.StartMigration(r.id(), r.epoch(), r.generation(), target, rate, by, backup,
                replaces), -1);
    }

    private CompletableFuture<MigrationStatus> commit(MetaCommand command, long id) {
        return ctx.metadata().submit(command, ctx.metadataTimeout())
                .handle((res, error) -> AdminCommits.applied(ctx.nodeId(), res, error, "change", "nothing changed"))
                .thenCompose(res -> AdminCommits.seen(ctx.metadata().awaitVersion(res.version(),
                        ctx.metadataTimeout()), ctx.nodeId(), res.version(), "change")
                        .thenApply(state -> status(state, id >= 0 ? id : res.migrationId(), command)));
    }

    private static MigrationStatus status(MetaState s, long id, MetaCommand command) {
        MigrationInfo m = s.migration(id);
        if (m == null) {
            return new MigrationStatus(id, -1, "", "", "", command instanceof MetaCommand.EndMigration ? "aborted"
                    : "finished", false, 0, 0, 0, -1, "", false, null);
        }
        return MigrationAdmin.toStatus(s, m);
    }

    static MigrationStatus toStatus(MetaState s, MigrationInfo m) {
        RangeDescriptor r = s.range(m.rangeId());
        return new MigrationStatus(m.id(), m.rangeId(), r == null ? "" : r.span(), m.source(), m.target(),
                m.phase().name().toLowerCase().replace('_', ' '), m.paused(), m.rateBytes(), m.keysCopied(),
                m.bytesCopied(), -1, m.startedBy(), m.backup(), m.replaces());
    }

    private static byte[] hex(String text) {
        byte[] key;
        try {
            key = HexFormat.of().parseHex(text);
        } catch (IllegalArgumentException e) {
            throw invalid("'" + text + "' is not a key in hex: " + e.getMessage());
        }
        String problem = Limits.DEFAULT.checkKey(key);
        if (problem != null) {
            throw invalid(problem);
        }
        return key;
    }

    private static ProtocolException invalid(String why) {
        return new ProtocolException(Status.INVALID_ARGUMENT, why);
    }
}
