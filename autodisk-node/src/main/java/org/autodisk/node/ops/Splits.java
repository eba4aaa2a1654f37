package org.autodisk.node.ops;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.SplitResult;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.RangeSplitRequest;

/**
 * Splits ranges through the metadata: one committed command naming the generation the split was decided at, so a
 * split that raced with another change of the range is refused. Data stays on the owner; both halves keep owner,
 * backups and log nodes. Asked by a client (SPLIT) or by this node's split rule.
 */
public final class Splits {

    private final NodeContext ctx;
    private final BiFunction<RangeDescriptor, byte[], MetaCommand.Split> command;

    /**
     * Creates the splitter of a node whose splits open no ledgers (each half opens its own).
     *
     * @param ctx the node
     */
    public Splits(NodeContext ctx) {
        this(ctx, (r, at) -> new MetaCommand.Split(r.id(), r.generation(), at));
    }

    /**
     * Creates the splitter of a node.
     *
     * @param ctx     the node
     * @param command makes the command that splits a range at a key (its owner's opens the halves' ledgers)
     */
    public Splits(NodeContext ctx, BiFunction<RangeDescriptor, byte[], MetaCommand.Split> command) {
        this.ctx = ctx;
        this.command = command;
    }

    /**
     * Splits the range holding a key at that key.
     *
     * @param key the first key of the right half
     * @return the halves once this node has applied the split; fails with a {@link ProtocolException}:
     *         INVALID_ARGUMENT for a bad key or a refused split, NODE_UNAVAILABLE while the metadata is not ready,
     *         OUTCOME_UNKNOWN when this node cannot confirm the split (it may still commit)
     */
    public CompletableFuture<SplitResult> atKey(byte[] key) {
        String problem = ctx.limits().checkKey(key);
        if (problem != null) {
            return CompletableFuture.failedFuture(new ProtocolException(Status.INVALID_ARGUMENT, problem));
        }
        MetaState meta = ctx.metadata().current();
        if (!meta.bootstrapped()) {
            return CompletableFuture.failedFuture(new ProtocolException(Status.NODE_UNAVAILABLE,
                    ctx.metadataNotReady()));
        }
        RangeDescriptor r = meta.rangeOf(key);
        if (Keys.compare(r.low(), key) == 0) {
            return CompletableFuture.failedFuture(new ProtocolException(Status.INVALID_ARGUMENT, "key "
                    + Keys.render(key) + " is where range " + r.id() + " " + r.span() + " starts already: a split "
                    + "key must lie strictly inside a range; nothing was split"));
        }
        return r.owner().equals(ctx.nodeId()) ? split(r, key) : atOwner(r, key);
    }

    /**
     * Asks the range's owner to split it (RANGE_SPLIT), so that the split opens the halves' ledgers for it. If the
     * owner does not answer or refuses, this node commits the split itself, as any node may: the commit decides,
     * and a refusal says what it found.
     */
    private CompletableFuture<SplitResult> atOwner(RangeDescriptor r, byte[] at) {
        Frame ask = PeerOp.RANGE_SPLIT.request(new RangeSplitRequest(r.id(), r.generation(), at).encode());
        return ctx.peers().send(r.owner(), ask).handle((resp, err) -> err == null
                && Responses.status(resp.body()) == Status.OK ? SplitResult.fromJson(Responses.parseBytes(resp.body()))
                : null).thenCompose(done -> done == null ? split(r, at) : ctx.metadata().awaitVersion(done.version(),
                        ctx.metadataTimeout()).handle((state, err) -> done));
    }

    /**
     * Splits a range at a key strictly inside it.
     *
     * @param r  the range as this node knows it (its generation is what the command expects)
     * @param at the first key of the right half
     * @return as {@link #atKey}
     */
    public CompletableFuture<SplitResult> split(RangeDescriptor r, byte[] at) {
        return ctx.metadata().submit(command.apply(r, at), ctx.metadataTimeout())
                .handle((result, error) -> AdminCommits.applied(ctx.nodeId(), result, error, "split",
                        "nothing was split"))
                .thenCompose(result -> AdminCommits.seen(ctx.metadata().awaitVersion(result.version(),
                        ctx.metadataTimeout()), ctx.nodeId(), result.version(), "split"))
                .thenApply(state -> halves(state, r.id(), at));
    }

    private static SplitResult halves(MetaState state, int leftId, byte[] at) {
        RangeDescriptor right = state.rangeOf(at);
        RangeDescriptor left = state.range(leftId);
        return new SplitResult(state.version(), StatusHandler.toStatus(left, List.of(), null),
                StatusHandler.toStatus(right, List.of(), null));
    }
}
