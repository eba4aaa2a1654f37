package org.autodisk.node.ops;

import java.util.function.Function;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.directory.KeyRange;
import org.autodisk.node.peer.PeerException;
import org.autodisk.node.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A change on its owner: without log nodes it is applied to the store at once; with them it is shipped first,
 * and applied (by the write-ahead log's apply thread, in LSN order) and answered only once durable on the log nodes.
 */
final class LoggedWrite {

    private static final Logger LOG = LoggerFactory.getLogger(LoggedWrite.class);

    private LoggedWrite() {
    }

    /**
     * Writes and replies.
     *
     * @param ctx     the node
     * @param request the request
     * @param range   the key's range (owned here)
     * @param record  the change (its LSN is assigned by the log; 0 here)
     * @param multiplicity how many log nodes must hold the record before it is applied (the rules' decision)
     * @param reply   builds the reply body from the store's answer (created / existed)
     */
    static void write(NodeContext ctx, Request request, KeyRange range, LogRecord record, int multiplicity,
            Function<Boolean, byte[]> reply) {
        long t0 = System.nanoTime();
        if (ctx.wal() == null) {
            request.action("store");
            boolean changed = record.op() == LogRecord.PUT ? ctx.store().put(record.key(), record.value())
                    : ctx.store().delete(record.key());
            request.component("store", System.nanoTime() - t0);
            request.reply(reply.apply(changed));
            return;
        }
        request.action(multiplicity > 1 ? "log x" + multiplicity + "+store" : "log+store");
        ctx.wal().log(range.id(), range.epoch(), record.op(), record.key(), record.value(), multiplicity,
                applied -> {
                    request.component("log", applied.durableNanos() - t0);
                    request.component("store", System.nanoTime() - applied.durableNanos());
                    request.reply(reply.apply(applied.changed()));
                },
                failure -> failed(ctx, request, failure));
    }

    private static void failed(NodeContext ctx, Request request, RuntimeException failure) {
        if (failure instanceof StoreException e) {
            LOG.error("{}: applying a durable change failed", ctx.nodeId(), e);
            request.replyError(Status.INTERNAL_ERROR, "store failure on node " + ctx.nodeId() + ": " + e.getMessage());
        } else {
            request.replyError(failure instanceof PeerException pe ? pe.status() : Status.NODE_UNAVAILABLE,
                    failure.getMessage());
        }
    }
}
