package org.autodisk.node.balance;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.autodisk.core.cluster.SplitResult;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.Splits;
import org.autodisk.node.wire.PeerOp;
import org.autodisk.node.wire.RangeSplitRequest;

/**
 * Splits a range at its middle stream for a balance move of its upper half: the owner finds the middle (this node
 * itself, or the owner asked by RANGE_SPLIT) and commits the split; the upper half is then a range of its own.
 */
final class UpperHalves {

    private final NodeContext ctx;
    private final BiFunction<byte[], byte[], byte[]> ownSplitKey;
    private final Splits splits;

    /**
     * Creates the splitter of one node.
     *
     * @param ctx         the node
     * @param ownSplitKey the middle stream's key of a range this node owns ({@code null}: fewer than two streams)
     * @param splits      this node's splitter
     */
    UpperHalves(NodeContext ctx, BiFunction<byte[], byte[], byte[]> ownSplitKey, Splits splits) {
        this.ctx = ctx;
        this.ownSplitKey = ownSplitKey;
        this.splits = splits;
    }

    /**
     * Splits a range at its middle stream.
     *
     * @param r the range as this node saw it (its generation is what the split expects)
     * @return the upper half, as this node's metadata has it once the split applied here
     */
    CompletableFuture<RangeDescriptor> split(RangeDescriptor r) {
        CompletableFuture<SplitResult> done = r.owner().equals(ctx.nodeId()) ? here(r) : atOwner(r);
        return done.thenCompose(s -> ctx.metadata().awaitVersion(s.version(), ctx.metadataTimeout())
                .thenApply(state -> state.range(s.right().id())));
    }

    private CompletableFuture<SplitResult> here(RangeDescriptor r) {
        byte[] at = ownSplitKey.apply(r.low(), r.high());
        if (at == null) {
            return CompletableFuture.failedFuture(new ProtocolException(Status.INVALID_ARGUMENT, "range " + r.id()
                    + " " + r.span() + " holds fewer than two streams: it has no halves"));
        }
        return splits.split(r, at);
    }

    private CompletableFuture<SplitResult> atOwner(RangeDescriptor r) {
        Frame ask = PeerOp.RANGE_SPLIT.request(new RangeSplitRequest(r.id(), r.generation()).encode());
        return ctx.peers().send(r.owner(), ask).thenApply(resp -> {
            Status status = Responses.status(resp.body());
            if (status != Status.OK) {
                throw new ProtocolException(status, Responses.errorMessage(resp.body()));
            }
            return SplitResult.fromJson(Responses.parseBytes(resp.body()));
        });
    }
}
