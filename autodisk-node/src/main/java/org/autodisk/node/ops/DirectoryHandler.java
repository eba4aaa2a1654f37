package org.autodisk.node.ops;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.wire.PeerOp;

/**
 * DIRECTORY: what every data node's directory holds, asked of each by DIRECTORY_INDEX in parallel (a node that does
 * not answer in time is listed with the reason), with the tree's height and its distinct index pages counted once.
 */
final class DirectoryHandler implements OperationHandler {

    /** How long a data node has to describe its copies. */
    private static final long WAIT_MS = 5000;

    private final NodeContext ctx;

    DirectoryHandler(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handle(Request request) {
        MetaState meta = ctx.metadata().current();
        if (!meta.bootstrapped()) {
            request.replyError(Status.NODE_UNAVAILABLE, ctx.metadataNotReady());
            return;
        }
        Map<String, CompletableFuture<DirectoryReport.NodeIndex>> asked = new LinkedHashMap<>();
        meta.members().stream().filter(m -> "data".equals(m.role())).map(Member::id)
                .forEach(id -> asked.put(id, id.equals(ctx.nodeId())
                        ? CompletableFuture.completedFuture(ctx.directory().index(id, meta)) : ask(id)));
        CompletableFuture.allOf(asked.values().toArray(CompletableFuture[]::new)).thenRun(() -> Guard.run(
                ctx.nodeId(), r -> reply(r, meta, asked), request));
    }

    private void reply(Request request, MetaState meta,
            Map<String, CompletableFuture<DirectoryReport.NodeIndex>> asked) {
        List<DirectoryReport.NodeIndex> nodes = new ArrayList<>();
        asked.values().forEach(f -> nodes.add(f.join()));
        Set<Long> distinct = new HashSet<>();
        int levels = 0;
        for (DirectoryReport.NodeIndex n : nodes) {
            for (DirectoryReport.IndexPage p : n.pages()) {
                distinct.add(p.id());
                levels = Math.max(levels, p.level());
            }
        }
        request.reply(Responses.bytesResult(new DirectoryReport(ctx.nodeId(), meta.directory(), meta.version(), levels,
                distinct.size(), nodes, meta.created().fanout()).toJson()));
    }

    private CompletableFuture<DirectoryReport.NodeIndex> ask(String node) {
        return ctx.peers().send(node, PeerOp.DIRECTORY_INDEX.request(new byte[0]))
                .thenApply(DirectoryHandler::parse)
                .completeOnTimeout(failed(node, "no answer in " + WAIT_MS + " ms"), WAIT_MS, TimeUnit.MILLISECONDS)
                .exceptionally(e -> failed(node, e.getCause() != null ? e.getCause().toString() : e.toString()));
    }

    private static DirectoryReport.NodeIndex failed(String node, String why) {
        return new DirectoryReport.NodeIndex(node, null, 0, 0, List.of(), List.of(), why);
    }

    private static DirectoryReport.NodeIndex parse(Frame resp) {
        if (Responses.status(resp.body()) != Status.OK) {
            throw new IllegalStateException(Responses.errorMessage(resp.body()));
        }
        return DirectoryReport.NodeIndex.fromJson(Responses.parseBytes(resp.body()));
    }
}
