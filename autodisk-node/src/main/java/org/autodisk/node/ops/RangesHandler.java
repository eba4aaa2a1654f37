package org.autodisk.node.ops;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.store.RangeUsage;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.RangeUsageReport;

/**
 * RANGES: every range as the committed metadata describes it, with the keys and bytes its owner holds, asked of
 * every owner by RANGE_USAGE in parallel (an owner that does not answer in time leaves its ranges' figures
 * unknown, -1), and every member's address. A body of one byte 0 asks for the map only (-1 figures), as a client
 * building its routing table does.
 */
final class RangesHandler implements OperationHandler {

    /** How long an owner has to measure its ranges. */
    private static final long USAGE_WAIT_MS = 5000;

    private final NodeContext ctx;
    private final Supplier<Map<Integer, RangeUsage>> ownUsage;

    RangesHandler(NodeContext ctx, Supplier<Map<Integer, RangeUsage>> ownUsage) {
        this.ctx = ctx;
        this.ownUsage = ownUsage;
    }

    @Override
    public void handle(Request request) {
        MetaState meta = ctx.metadata().current();
        if (!meta.bootstrapped()) {
            request.replyError(Status.NODE_UNAVAILABLE, ctx.metadataNotReady());
            return;
        }
        byte[] body = request.frame().body();
        boolean measure = body.length == 0 || body[0] != 0;
        Set<String> owners = new LinkedHashSet<>();
        meta.ranges().forEach(r -> owners.add(r.owner()));
        Map<String, CompletableFuture<Map<Integer, RangeUsage>>> asked = new HashMap<>();
        owners.forEach(o -> asked.put(o, !measure ? CompletableFuture.completedFuture(Map.of())
                : o.equals(ctx.nodeId()) ? CompletableFuture.completedFuture(ownUsage.get()) : ask(o)));
        CompletableFuture.allOf(asked.values().toArray(CompletableFuture[]::new)).thenRun(() -> Guard.run(
                ctx.nodeId(), r -> reply(r, meta, asked), request));
    }

    private void reply(Request request, MetaState meta,
            Map<String, CompletableFuture<Map<Integer, RangeUsage>>> asked) {
        List<RangeStatus> ranges = meta.ranges().stream()
                .map(r -> StatusHandler.toStatus(r, List.of(), usageOf(asked, r))).toList();
        Map<String, String> addresses = new TreeMap<>();
        meta.members().forEach(m -> addresses.put(m.id(), m.address()));
        request.reply(Responses.bytesResult(new RangesReport(ctx.nodeId(), meta.directory(), meta.version(), ranges,
                addresses).toJson()));
    }

    private static RangeUsage usageOf(Map<String, CompletableFuture<Map<Integer, RangeUsage>>> asked,
            RangeDescriptor r) {
        return asked.get(r.owner()).join().get(r.id());
    }

    private CompletableFuture<Map<Integer, RangeUsage>> ask(String owner) {
        return ctx.peers().send(owner, PeerOp.RANGE_USAGE.request(new byte[0]))
                .thenApply(RangesHandler::parse)
                .completeOnTimeout(Map.of(), USAGE_WAIT_MS, TimeUnit.MILLISECONDS)
                .exceptionally(e -> Map.of());
    }

    private static Map<Integer, RangeUsage> parse(Frame resp) {
        if (Responses.status(resp.body()) != Status.OK) {
            throw new IllegalStateException(Responses.errorMessage(resp.body()));
        }
        return RangeUsageReport.decode(Responses.parseBytes(resp.body())).ranges();
    }
}
