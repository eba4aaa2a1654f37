package org.autodisk.node.ops;

import java.nio.ByteBuffer;
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
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.config.ClusterMember;
import org.autodisk.rules.RuleEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RULES_RELOAD, in two phases so that a reload is all or none. Asked by a client (phase {@code RELOAD}), this
 * node has every reachable member compile its rule files ({@code PREPARE}); only if all compiled does it tell
 * them to install ({@code COMMIT}), else to drop what they compiled ({@code ABORT}) and keep their rules.
 * A member that cannot be reached is reported; it loads its rule files when it starts.
 */
final class RulesReloadHandler implements OperationHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RulesReloadHandler.class);
    static final byte RELOAD = 0;
    static final byte PREPARE = 1;
    static final byte COMMIT = 2;
    static final byte ABORT = 3;
    private static final int KEPT_PREPARED = 4;

    private final NodeContext ctx;
    private final Map<Long, RuleEngine.Prepared> prepared = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong(System.nanoTime());

    RulesReloadHandler(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handle(Request request) {
        ByteBuffer body = ByteBuffer.wrap(request.frame().body());
        byte phase = body.remaining() < 1 ? -1 : body.get();
        if (phase == RELOAD) {
            coordinate(request);
            return;
        }
        if (body.remaining() != Long.BYTES || phase < PREPARE || phase > ABORT) {
            throw new ProtocolException(Status.MALFORMED, "RULES_RELOAD body must be a phase byte (0..3) and, for "
                    + "phases 1..3, an 8-byte token");
        }
        long token = body.getLong();
        switch (phase) {
            case PREPARE -> compile(token)
                    .thenAccept(r -> request.reply(Responses.bytesResult(ClusterStatus.write(r))));
            case COMMIT -> request.reply(install(token));
            default -> {
                prepared.remove(token);
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

    private void coordinate(Request request) {
        long token = tokens.incrementAndGet();
        List<CompletableFuture<NodeReload>> answers = new ArrayList<>();
        for (ClusterMember m : ctx.members()) {
            answers.add(m.id().equals(ctx.nodeId()) ? compile(token) : ask(m.id(), PREPARE, token)
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

    private static String reason(Throwable e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return String.valueOf(cause.getMessage());
    }

    private CompletableFuture<Void> finish(long token, List<NodeReload> nodes, boolean ok) {
        LOG.info("{}: rules reload {}: {}", ctx.nodeId(), ok ? "installing on every reachable node"
                : "refused, every node keeps its rules", nodes);
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (NodeReload n : nodes) {
            if (!n.reachable()) {
                continue;
            }
            if (n.id().equals(ctx.nodeId())) {
                if (ok) {
                    install(token);
                } else {
                    prepared.remove(token);
                }
            } else {
                sent.add(ask(n.id(), ok ? COMMIT : ABORT, token).exceptionally(e -> {
                    LOG.warn("{}: rules reload: {} did not confirm: {}", ctx.nodeId(), n.id(), reason(e));
                    return null;
                }));
            }
        }
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Frame> ask(String node, byte phase, long token) {
        byte[] body = ByteBuffer.allocate(1 + Long.BYTES).put(phase).putLong(token).array();
        return ctx.peers().send(node, Frame.request(Opcode.RULES_RELOAD, 0, body)).thenApply(resp -> {
            if (Responses.status(resp.body()) != Status.OK) {
                throw new IllegalStateException(node + ": " + Responses.errorMessage(resp.body()));
            }
            return resp;
        });
    }
}
