package org.autodisk.client;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.autodisk.core.protocol.Status;

/** Maps node statuses to exception types and unwraps future failures. */
final class Errors {

    private Errors() {
    }

    /**
     * Builds the exception for an error answer.
     *
     * @param status  the node's status, not OK
     * @param message the node's message, kept verbatim
     * @param nodeId  the node that answered, or {@code null}
     * @return the exception of the matching type
     */
    static AutoDiskException fromStatus(Status status, String message, String nodeId) {
        return switch (status) {
            case INVALID_ARGUMENT, FRAME_TOO_LARGE, MALFORMED, UNKNOWN_OPCODE, HANDSHAKE_REQUIRED, NOT_PERMITTED,
                    WRONG_ROLE ->
                    new InvalidRequestException(message, status, nodeId);
            case OVERLOADED -> new OverloadedException(message, status, nodeId);
            case NODE_UNAVAILABLE, SHUTTING_DOWN -> new NodeUnavailableException(message, status, nodeId);
            case TIMEOUT -> new RequestTimeoutException(message, status, nodeId);
            case UNSUPPORTED_VERSION -> new ProtocolVersionException(message, status, nodeId);
            case HOP_LIMIT_EXCEEDED, STALE_MAP -> new RoutingException(message, status, nodeId);
            case REFUSED -> new RefusedException(message, status, nodeId);
            case OUTCOME_UNKNOWN -> new OutcomeUnknownException(message, status, nodeId);
            case RULE_FAILED -> new RuleFailedException(message, status, nodeId);
            default -> new AutoDiskException(message, status, nodeId);
        };
    }

    /**
     * Builds a client-side validation failure.
     *
     * @param message what is wrong, naming the limit
     * @return the exception
     */
    static InvalidRequestException invalid(String message) {
        return new InvalidRequestException(message, null, null);
    }

    /**
     * Strips the wrappers futures put around a failure.
     *
     * @param t a failure from a future
     * @return the underlying failure
     */
    static Throwable unwrap(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof CompletionException || cur instanceof ExecutionException) && cur.getCause() != null) {
            cur = cur.getCause();
        }
        return cur;
    }

    /**
     * Turns a future's failure into an exception a blocking caller can catch by type.
     *
     * @param t a failure from a future
     * @return the unchecked exception to throw
     */
    static RuntimeException rethrowable(Throwable t) {
        Throwable cause = unwrap(t);
        if (cause instanceof RuntimeException re) {
            return re;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new AutoDiskException(describe(cause), null, null, cause);
    }

    /**
     * Describes a failure in a few words for messages that list several failures.
     *
     * @param t the failure
     * @return its message, or its type if it has none
     */
    static String describe(Throwable t) {
        Throwable cause = unwrap(t);
        String m = cause.getMessage();
        return m == null || m.isBlank() ? cause.getClass().getSimpleName() : m;
    }
}
