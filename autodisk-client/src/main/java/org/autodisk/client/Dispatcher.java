package org.autodisk.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends requests over the {@link Failover}'s connection. A request that was never written is sent again on
 * the next connection; a read whose connection dropped before the answer is sent once more, while a write then fails
 * with {@link OutcomeUnknownException} (it may have been carried out); a request refused for the node's role
 * (WRONG_ROLE: a log node asked for a stream, nothing done) is sent to another seed. A
 * request the cluster could not serve for now and did not carry out (NODE_UNAVAILABLE: its range fails over, its
 * owner is unreachable; OVERLOADED; SHUTTING_DOWN) is sent again after a short wait, every other time to the next
 * seed, until the request timeout from its first send: a failover costs the caller a wait, not an error. A write
 * whose outcome is unknown (OUTCOME_UNKNOWN) is not sent again: the caller decides. A node that let a request time
 * out (a stalled process, say) is left: the next request goes to the next seed.
 */
final class Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final Failover failover;
    private final Duration requestTimeout;

    /** How long the first wait before sending again is; it doubles up to {@link #MAX_BACKOFF_MS}. */
    private static final long FIRST_BACKOFF_MS = 10;
    private static final long MAX_BACKOFF_MS = 250;
    /** The least time a request is sent with. */
    private static final long MIN_LEFT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** One request to send, possibly more than once, until its deadline (nanos); {@code sends} counts its sends. */
    private record Call(Opcode op, byte[] body, boolean traced, boolean idempotent, int[] roleMoves, long deadline,
            int[] waits, int[] sends) {
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
        attempt(new Call(op, body, traced, idempotent, new int[] {failover.seedCount()},
                System.nanoTime() + requestTimeout.toNanos(), new int[1], new int[1]), out, idempotent ? 1 : 0,
                failover.seedCount());
        return out;
    }

    private void attempt(Call call, CompletableFuture<Reply> out, int resends, int unsentRetries) {
        Connection[] used = new Connection[1];
        failover.acquire()
                .thenCompose(c -> {
                    used[0] = c;
                    return c.request(call.op(), call.body(), call.traced(), left(call))
                            .exceptionallyCompose(error -> wrongRole(c, call, error));
                })
                .whenComplete((reply, error) -> {
                    if (error == null) {
                        out.complete(reply);
                        return;
                    }
                    Throwable cause = Errors.unwrap(error);
                    if (cause instanceof RequestTimeoutException e && e.status() == null && used[0] != null) {
                        failover.moveOn(used[0], requestTimeout);
                    }
                    if (!waitAndRetry(call, out, cause, used[0], resends, unsentRetries)) {
                        retryOrFail(call, out, cause, resends, unsentRetries);
                    }
                });
    }

    /** The request's time: all of it the first time, what the first send left it when sent again. */
    private Duration left(Call call) {
        return call.sends()[0]++ == 0 ? requestTimeout
                : Duration.ofNanos(Math.max(MIN_LEFT_NANOS, call.deadline() - System.nanoTime()));
    }

    /**
     * Sends again, after a wait, a request the cluster did not carry out for now; every other time on the next seed.
     *
     * @return whether it will be sent again
     */
    private boolean waitAndRetry(Call call, CompletableFuture<Reply> out, Throwable cause, Connection used,
            int resends, int unsentRetries) {
        if (!(cause instanceof AutoDiskException e) || !notDone(e.status())) {
            return false;
        }
        int n = call.waits()[0]++;
        long wait = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(n, 10));
        if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(wait) - call.deadline() >= 0) {
            return false;
        }
        if (used != null && n % 2 == 1) {
            failover.moveOn(used, requestTimeout);
        }
        LOG.debug("{} not served for now ({}); sending it again in {} ms", call.op(), cause.getMessage(), wait);
        return failover.later(() -> attempt(call, out, resends, unsentRetries), wait);
    }

    /** The statuses of a request the cluster refused before doing anything, which may be served a moment later. */
    private static boolean notDone(Status status) {
        return status == Status.NODE_UNAVAILABLE || status == Status.OVERLOADED || status == Status.SHUTTING_DOWN;
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
            out.completeExceptionally(lost.written() && !call.idempotent() ? lost.unknownOutcome() : lost.toPublic());
        }
    }
}
