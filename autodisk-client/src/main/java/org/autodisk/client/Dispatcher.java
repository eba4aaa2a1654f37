package org.autodisk.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends requests over the {@link Failover}'s connection. A request that was never written is sent again on
 * the next connection; an idempotent request whose connection dropped before the answer is sent once more; a request
 * refused for the node's role (WRONG_ROLE: a log node asked for a stream, nothing done) is sent to another seed.
 */
final class Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final Failover failover;
    private final Duration requestTimeout;

    /** One request to send, possibly more than once. */
    private record Call(Opcode op, byte[] body, boolean traced, boolean idempotent, int[] roleMoves) {
    }

    Dispatcher(Failover failover, Duration requestTimeout) {
        this.failover = failover;
        this.requestTimeout = requestTimeout;
    }

    /**
     * Sends a request and waits for its answer.
     *
     * @param op         the operation
     * @param body       the encoded request body
     * @param traced     whether to ask for a trace
     * @param idempotent whether the request may be sent again after its connection dropped before the answer
     * @return the successful reply; fails with an {@link AutoDiskException} subclass
     */
    CompletableFuture<Reply> call(Opcode op, byte[] body, boolean traced, boolean idempotent) {
        CompletableFuture<Reply> out = new CompletableFuture<>();
        attempt(new Call(op, body, traced, idempotent, new int[] {failover.seedCount()}), out, idempotent ? 1 : 0,
                failover.seedCount());
        return out;
    }

    private void attempt(Call call, CompletableFuture<Reply> out, int resends, int unsentRetries) {
        failover.acquire()
                .thenCompose(c -> c.request(call.op(), call.body(), call.traced(), requestTimeout)
                        .exceptionallyCompose(error -> wrongRole(c, call, error)))
                .whenComplete((reply, error) -> {
                    if (error == null) {
                        out.complete(reply);
                    } else {
                        retryOrFail(call, out, Errors.unwrap(error), resends, unsentRetries);
                    }
                });
    }

    /** A WRONG_ROLE refusal leaves that node (when there is another seed) and is sent again: nothing was done. */
    private CompletableFuture<Reply> wrongRole(Connection c, Call call, Throwable error) {
        Throwable cause = Errors.unwrap(error);
        if (cause instanceof AutoDiskException e && e.status() == Status.WRONG_ROLE && call.roleMoves()[0]-- > 0
                && failover.leaveForRole(c, requestTimeout)) {
            return CompletableFuture.failedFuture(new ConnectionLost(call.op() + " was refused by node " + c.nodeId()
                    + " for its role", false, c.nodeId(), cause));
        }
        return CompletableFuture.failedFuture(cause);
    }

    private void retryOrFail(Call call, CompletableFuture<Reply> out, Throwable cause, int resends,
            int unsentRetries) {
        if (!(cause instanceof ConnectionLost lost)) {
            out.completeExceptionally(cause);
        } else if (!lost.written() && unsentRetries > 0) {
            LOG.debug("{} was not sent ({}); sending it on the next connection", call.op(), lost.getMessage());
            attempt(call, out, resends, unsentRetries - 1);
        } else if (lost.written() && resends > 0) {
            LOG.info("{}; sending {} again on the next seed", lost.getMessage(), call.op());
            attempt(call, out, resends - 1, unsentRetries);
        } else {
            out.completeExceptionally(lost.toPublic());
        }
    }
}
