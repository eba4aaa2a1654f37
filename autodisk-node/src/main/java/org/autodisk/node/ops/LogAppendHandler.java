package org.autodisk.node.ops;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.autodisk.core.protocol.LogBatch;
import org.autodisk.core.protocol.LogRecord;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;

/**
 * LOG_APPEND on a log node: fences stale range epochs, then answers once the records are durable (group
 * commit in the log store); the answer carries the stream's last durable LSN.
 */
final class LogAppendHandler implements OperationHandler {

    private final NodeContext ctx;
    private final Map<Integer, Long> epochs = new ConcurrentHashMap<>();

    LogAppendHandler(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handle(Request request) {
        LogBatch batch = LogBatch.decode(request.frame().body(), 0);
        String fenced = fence(batch);
        if (fenced != null) {
            request.replyError(Status.FENCED, fenced);
            return;
        }
        request.action("log");
        if (ctx.catchUp() != null) {
            ctx.catchUp().appended(batch.stream(), batch.lastLsn());
        }
        long t0 = System.nanoTime();
        ctx.logStore().append(batch.stream(), batch.records()).whenComplete((last, err) -> {
            request.component("log", System.nanoTime() - t0);
            if (err == null) {
                request.reply(Responses.lsnResult(last));
            } else {
                Throwable cause = err instanceof java.util.concurrent.CompletionException && err.getCause() != null
                        ? err.getCause() : err;
                request.replyError(Status.NODE_UNAVAILABLE, "log node " + ctx.nodeId()
                        + " could not make the records durable: " + cause.getMessage());
            }
        });
    }

    private String fence(LogBatch batch) {
        for (LogRecord r : batch.records()) {
            long known = epochs.merge(r.rangeId(), r.epoch(), Math::max);
            if (r.epoch() < known) {
                return "log node " + ctx.nodeId() + " refuses records of range " + r.rangeId() + " at epoch "
                        + r.epoch() + " from " + batch.stream() + ": the range is at epoch " + known;
            }
        }
        return null;
    }
}
