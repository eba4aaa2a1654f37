package org.autodisk.node.balance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MigrationInfo;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.meta.RangeState;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.store.DiskSpace;
import org.autodisk.node.store.RangeUsage;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.RangeUsageReport;
import org.autodisk.rules.ClusterLoad;
import org.autodisk.rules.NodeLoad;
import org.autodisk.rules.RangeLoad;

/**
 * Gathers one balance round's facts from the committed metadata of the node asked: every data member with its
 * state, every range with the keys, bytes and request rate its owner measures (RANGE_USAGE, asked of every data node
 * in parallel; one that does not answer in time leaves its figures unknown, -1); a node's request rate is the sum of
 * its ranges', and its disk's free and total bytes come with its answer (-1: unknown, as from a node of an older
 * build), less what the migrations under way into it have still to copy there.
 */
final class LoadGathering {

    /** How long a data node has to measure its ranges. */
    static final long USAGE_WAIT_MS = 5000;

    private final NodeContext ctx;
    private final Supplier<Map<Integer, RangeUsage>> ownUsage;
    private final Supplier<DiskSpace> ownDisk;

    LoadGathering(NodeContext ctx, Supplier<Map<Integer, RangeUsage>> ownUsage, Supplier<DiskSpace> ownDisk) {
        this.ctx = ctx;
        this.ownUsage = ownUsage;
        this.ownDisk = ownDisk;
    }

    CompletableFuture<ClusterLoad> gather(MetaState meta) {
        Map<String, CompletableFuture<RangeUsageReport>> asked = new HashMap<>();
        for (Member m : dataMembers(meta)) {
            asked.put(m.id(), m.id().equals(ctx.nodeId()) ? CompletableFuture.completedFuture(
                    new RangeUsageReport(m.id(), meta.version(), ownUsage.get(), ownDisk.get())) : ask(m.id()));
        }
        return CompletableFuture.allOf(asked.values().toArray(CompletableFuture[]::new))
                .thenApply(v -> facts(meta, asked));
    }

    static List<Member> dataMembers(MetaState meta) {
        return meta.members().stream().filter(m -> "data".equals(m.role())).toList();
    }

    private ClusterLoad facts(MetaState meta, Map<String, CompletableFuture<RangeUsageReport>> asked) {
        List<RangeLoad> ranges = new ArrayList<>();
        for (RangeDescriptor r : meta.ranges()) {
            CompletableFuture<RangeUsageReport> usage = asked.get(r.owner());
            RangeUsageReport measured = usage == null ? null : usage.join();
            RangeUsage u = measured == null ? null : measured.ranges().get(r.id());
            boolean movable = r.state() == RangeState.SERVING && !r.logNodes().isEmpty()
                    && meta.migrationOf(r.id()) == null;
            ranges.add(new RangeLoad(r.id(), r.span(), r.owner(), lower(r.state().name()), movable,
                    u == null ? -1 : u.keys(), u == null ? -1 : u.bytes(), u == null ? -1 : u.requestsPerSecond(),
                    r.backups().isEmpty() ? "" : r.backups().get(0)));
        }
        List<NodeLoad> nodes = new ArrayList<>();
        Map<String, Long> incoming = incoming(meta, ranges);
        for (Member m : dataMembers(meta)) {
            List<RangeLoad> own = ranges.stream().filter(r -> r.owner().equals(m.id())).toList();
            RangeUsageReport report = asked.get(m.id()).join();
            boolean known = own.stream().allMatch(r -> r.bytes() >= 0) && report != null;
            DiskSpace disk = report == null ? null : report.disk();
            nodes.add(new NodeLoad(m.id(), lower(m.state().name()), own.size(),
                    known ? own.stream().mapToLong(RangeLoad::keys).sum() : -1,
                    known ? own.stream().mapToLong(RangeLoad::bytes).sum() : -1,
                    known ? own.stream().mapToDouble(RangeLoad::requestsPerSecond).sum() : -1,
                    disk == null ? -1 : Math.max(0, disk.freeBytes() - incoming.getOrDefault(m.id(), 0L)),
                    disk == null ? -1 : disk.totalBytes()));
        }
        return ClusterLoad.of(nodes, ranges, meta.migrations().size());
    }

    /** The bytes each node is still to receive from the migrations and backup fills under way into it. */
    private static Map<String, Long> incoming(MetaState meta, List<RangeLoad> ranges) {
        Map<Integer, Long> bytes = new HashMap<>();
        ranges.forEach(r -> bytes.put(r.rangeId(), Math.max(0, r.bytes())));
        Map<String, Long> out = new HashMap<>();
        for (MigrationInfo m : meta.migrations()) {
            long left = Math.max(0, bytes.getOrDefault(m.rangeId(), 0L) - m.bytesCopied());
            out.merge(m.target(), left, Long::sum);
        }
        return out;
    }

    private CompletableFuture<RangeUsageReport> ask(String node) {
        return ctx.peers().send(node, PeerOp.RANGE_USAGE.request(new byte[0]))
                .thenApply(LoadGathering::parse)
                .completeOnTimeout(null, USAGE_WAIT_MS, TimeUnit.MILLISECONDS)
                .exceptionally(e -> null);
    }

    private static RangeUsageReport parse(Frame resp) {
        if (Responses.status(resp.body()) != Status.OK) {
            return null;
        }
        return RangeUsageReport.decode(Responses.parseBytes(resp.body()));
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
