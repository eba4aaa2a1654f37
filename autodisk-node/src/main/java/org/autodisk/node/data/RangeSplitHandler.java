package org.autodisk.node.data;

import java.util.function.BiFunction;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.RangeDescriptor;
import org.autodisk.node.ops.Guard;
import org.autodisk.node.ops.NodeContext;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.ops.Splits;
import org.autodisk.node.store.LocalStore;
import org.autodisk.node.wire.RangeSplitRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RANGE_SPLIT: the owner of a range splits it at its middle stream (which only it can find) or at the key asked, if
 * the range is still at the generation the asking node saw; answers the halves. The balancing node asks it before it
 * moves the upper half to a data node that holds no range; a node asked to split a range it does not own asks it, so
 * that the split opens the halves' ledgers for the owner.
 */
final class RangeSplitHandler implements OperationHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RangeSplitHandler.class);

    private final NodeContext ctx;
    private final LocalStore store;
    private final Splits splits;

    RangeSplitHandler(NodeContext ctx, LocalStore store,
            BiFunction<RangeDescriptor, byte[], MetaCommand.Split> splitCommand) {
        this.ctx = ctx;
        this.store = store;
        this.splits = new Splits(ctx, splitCommand);
    }

    @Override
    public void handle(Request request) {
        RangeSplitRequest ask = RangeSplitRequest.decode(request.frame().body());
        RangeDescriptor r = ctx.metadata().current().range(ask.rangeId());
        if (r == null || !r.owner().equals(ctx.nodeId()) || r.generation() != ask.generation()) {
            request.replyError(Status.INVALID_ARGUMENT, "node " + ctx.nodeId() + " does not split range "
                    + ask.rangeId() + " of generation " + ask.generation() + ": " + (r == null ? "there is no such "
                    + "range" : "it is range " + r.span() + " of generation " + r.generation() + " owned by "
                    + r.owner()) + "; nothing was split");
            return;
        }
        byte[] at = ask.at() != null ? ask.at() : store.splitKey(r.low(), r.high());
        if (at == null) {
            request.replyError(Status.INVALID_ARGUMENT, "range " + r.id() + " " + r.span() + " holds fewer than two "
                    + "streams on " + ctx.nodeId() + ": it has no halves; nothing was split");
            return;
        }
        splits.split(r, at).whenComplete((result, error) -> {
            if (error != null) {
                Guard.failed(request, error, "split not done");
                return;
            }
            LOG.info("{}: split range {} {} at {} {} into ranges {} and {}, as {} asked", ctx.nodeId(), r.id(),
                    r.span(), ask.at() == null ? "its middle stream" : "key", Keys.render(at), result.left().id(),
                    result.right().id(), ask.at() == null ? "the balancer" : "the node an administrator asked");
            Guard.run(ctx.nodeId(), q -> q.reply(Responses.bytesResult(result.toJson())), request);
        });
    }
}
