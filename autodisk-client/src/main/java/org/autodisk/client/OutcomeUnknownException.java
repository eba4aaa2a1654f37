package org.autodisk.client;

import org.autodisk.core.protocol.Status;

/**
 * A write whose outcome could not be known ({@code OUTCOME_UNKNOWN}): it may or may not have been applied. The range's
 * log recovery settles it the same way for the owner, its log nodes and its backup; retrying an insert or a delete is
 * safe (an insert writes the same value again, a delete of a deleted key finds nothing).
 */
public final class OutcomeUnknownException extends AutoDiskException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong; for node errors the node's own message
     * @param status  the node's status, or {@code null} for a client-side failure
     * @param nodeId  the node that answered, or {@code null}
     */
    public OutcomeUnknownException(String message, Status status, String nodeId) {
        super(message, status, nodeId);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param message what went wrong; for node errors the node's own message
     * @param status  the node's status, or {@code null} for a client-side failure
     * @param nodeId  the node that answered, or {@code null}
     * @param cause   the underlying failure, or {@code null}
     */
    public OutcomeUnknownException(String message, Status status, String nodeId, Throwable cause) {
        super(message, status, nodeId, cause);
    }
}
