package org.autodisk.node.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.RulesReload;
import org.autodisk.core.cluster.RulesReload.NodeReload;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.RulesReloadRequest;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.RulesPhase;
import org.autodisk.rules.RuleEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rules reload, in two phases so that it is all or none. Asked by a client (RULES_RELOAD), this node coordinates:
 * every reachable member compiles its rule files (RULES_PHASE prepare); only if all compiled does it tell them to
 * install (commit), else to drop what they compiled (abort) and keep their rules. A member that cannot be reached
 * is reported; it loads its rule files when it starts.
 */
final class RulesReloadHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RulesReloadHandler.class);
    private static final int KEPT_PREPARED = 4;

    private final NodeContext ctx;
    private final Map<Long, RuleEngine.Prepared> prepared = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong(System.nanoTime());

    RulesReloadHandler(NodeContext ctx) {
        this.ctx = ctx;
    }

    /**
     * RULES_RELOAD from a client: runs the reload on every member and answers the outcome.
     *
     * @param request the request
     */
    void coordinate(Request request) {
        RulesReloadRequest.decode(request.frame().body());
        long token = tokens.incrementAndGet();
        List<CompletableFuture<NodeReload>> answers = new ArrayList<>();
        for (ClusterMember m : ctx.members()) {
            answers.add(m.id().equals(ctx.nodeId()) ? compile(token) : ask(m.id(), RulesPhase.Phase.PREPARE, token)
                    .thenApply(resp -> ClusterStatus.read(Responses.parseBytes(resp.body()), NodeReload.class))
                    .exceptionally(e -> new NodeReload(m.id(), false, 0, List.of(reason(e)))));
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenRun(() -> {
            List<NodeReload> nodes = answers.stream().map(CompletableFuture::join).toList();
            boolean ok = nodes.stream().allMatch(n -> !n.reachable() || n.errors().isEmpty());
            finish(token, nodes, ok).thenRun(() -> request.reply(Responses.bytesResult(
                    new RulesReload(ctx.nodeId(), ok, nodes).toJson())));
        });
    }

    /**
     * RULES_PHASE from the coordinating node.
     *
     * @param request the request
     */
    void phase(Request request) {
        RulesPhase phase = RulesPhase.decode(request.frame().body());
        switch (phase.phase()) {
            case PREPARE -> compile(phase.token())
                    .thenAccept(r -> request.reply(Responses.bytesResult(ClusterStatus.write(r))));
            case COMMIT -> request.reply(install(phase.token()));
            default -> {
                prepared.remove(phase.token());
                request.reply(Responses.ok());
            }
        }
    }

    private CompletableFuture<NodeReload> compile(long token) {
        CompletableFuture<NodeReload> out = new CompletableFuture<>();
        Thread.ofVirtual().name(ctx.nodeId() + "-rules-compile").start(() -> {
            RuleEngine.Prepared p = ctx.rules().prepare();
            if (p.errors().isEmpty()) {
                if (prepared.size() >= KEPT_PREPARED) {
                    prepared.clear();
                }
                prepared.put(token, p);
            }
            out.complete(new NodeReload(ctx.nodeId(), true, p.files(),
                    p.errors().stream().map(Object::toString).toList()));
        });
        return out;
    }

    private byte[] install(long token) {
        RuleEngine.Prepared p = prepared.remove(token);
        if (p == null) {
            return Responses.error(Status.INVALID_ARGUMENT, "node " + ctx.nodeId() + " holds no compiled rules for "
                    + "reload " + token + " (it restarted or the reload was aborted)");
        }
        ctx.rules().install(p);
        return Responses.ok();
    }

    private static String reason(Throwable e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return String.valueOf(cause.getMessage());
    }

    private CompletableFuture<Void> finish(long token, List<NodeReload> nodes, boolean ok) {
        LOG.info("{}: rules reload {}: {}", ctx.nodeId(), ok ? "installing on every reachable node"
                : "refused, every node keeps its rules", nodes);
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (NodeReload n : nodes) {
            if (n.reachable() && n.id().equals(ctx.nodeId())) {
                finishHere(token, ok);
            } else if (n.reachable()) {
                sent.add(ask(n.id(), ok ? RulesPhase.Phase.COMMIT : RulesPhase.Phase.ABORT, token).exceptionally(e -> {
                    LOG.warn("{}: rules reload: {} did not confirm: {}", ctx.nodeId(), n.id(), reason(e));
                    return null;
                }));
            }
        }
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new));
    }

    private void finishHere(long token, boolean ok) {
        if (ok) {
            install(token);
        } else {
            prepared.remove(token);
        }
    }

    private CompletableFuture<Frame> ask(String node, RulesPhase.Phase phase, long token) {
        return ctx.peers().send(node, PeerOp.RULES_PHASE.request(new RulesPhase(phase, token).encode()))
                .thenApply(resp -> {
                    if (Responses.status(resp.body()) != Status.OK) {
                        throw new IllegalStateException(node + ": " + Responses.errorMessage(resp.body()));
                    }
                    return resp;
                });
    }
}
