package org.autodisk.node.lognode;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.ledger.LedgerException;
import org.autodisk.node.ops.Request;
import org.autodisk.node.wire.PeerResponses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How the ledger handlers of a log node answer: a durable entry id, or the store's refusal with its status. */
final class LedgerReplies {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerReplies.class);

    private LedgerReplies() {
    }

    /**
     * Starts a store operation and answers its entry id once it completes (also when it fails at once).
     *
     * @param nodeId  this log node
     * @param request the request
     * @param op      starts the operation
     */
    static void answerEntry(String nodeId, Request request, Supplier<CompletableFuture<Long>> op) {
        CompletableFuture<Long> done;
        try {
            done = op.get();
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        long t0 = System.nanoTime();
        done.whenComplete((last, err) -> {
            request.component("journal", System.nanoTime() - t0);
            if (err == null) {
                request.reply(PeerResponses.lsnResult(last));
            } else {
                fail(nodeId, request, err);
            }
        });
    }

    /**
     * Answers a failed ledger operation: the store's refusal with its status, anything else as an internal error.
     *
     * @param nodeId  this log node
     * @param request the request
     * @param err     the failure
     */
    static void fail(String nodeId, Request request, Throwable err) {
        Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
        if (cause instanceof LedgerException e) {
            request.replyError(e.status(), e.getMessage());
        } else if (cause instanceof IllegalStateException e) {
            request.replyError(Status.REFUSED, e.getMessage());
        } else {
            LOG.error("{}: a ledger request failed", nodeId, cause);
            request.replyError(Status.INTERNAL_ERROR, "log node " + nodeId + ": " + cause);
        }
    }
}
