package org.autodisk.node.lognode;

import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.ops.OperationHandler;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.LogBatch;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.node.wire.PeerResponses;

/**
 * LOG_APPEND on a log node: fences stale range epochs, then answers once the records are durable (group
 * commit in the log store); the answer carries the stream's last durable LSN. Runs on the network thread that
 * decoded it and only hands the records to the log writer.
 */
final class LogAppendHandler implements OperationHandler {

    private final String nodeId;
    private final LogServices log;
    private final Consumer<String> streamSeen;
    private final Map<Integer, Long> epochs = new ConcurrentHashMap<>();

    LogAppendHandler(String nodeId, LogServices log, Consumer<String> streamSeen) {
        this.nodeId = nodeId;
        this.log = log;
        this.streamSeen = streamSeen;
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
        streamSeen.accept(batch.stream());
        log.catchUp().appended(batch.stream(), batch.lastLsn());
        long t0 = System.nanoTime();
        log.log().append(batch.stream(), batch.records()).whenComplete((last, err) -> {
            request.component("log", System.nanoTime() - t0);
            if (err == null) {
                request.reply(PeerResponses.lsnResult(last));
            } else {
                Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
                request.replyError(Status.NODE_UNAVAILABLE, "log node " + nodeId
                        + " could not make the records durable: " + cause.getMessage());
            }
        });
    }

    private String fence(LogBatch batch) {
        for (LogRecord r : batch.records()) {
            long known = epochs.merge(r.rangeId(), r.epoch(), Math::max);
            if (r.epoch() < known) {
                return "log node " + nodeId + " refuses records of range " + r.rangeId() + " at epoch "
                        + r.epoch() + " from " + batch.stream() + ": the range is at epoch " + known;
            }
        }
        return null;
    }
}
