package org.autodisk.client;

import org.autodisk.core.protocol.Status;

/**
 * Base of every failure the client reports. Unchecked; subclasses say what kind of failure it was. A failure
 * reported by a node carries the node's status and message verbatim; a client-side failure has no status.
 */
public class AutoDiskException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The status the node answered with, or {@code null} for a client-side failure. */
    private final Status status;

    /** The id of the node that answered, or {@code null}. */
    private final String nodeId;

    /**
     * Creates the exception.
     *
     * @param message what went wrong; for node errors the node's own message
     * @param status  the node's status, or {@code null} for a client-side failure
     * @param nodeId  the node that answered, or {@code null}
     */
    public AutoDiskException(String message, Status status, String nodeId) {
        this(message, status, nodeId, null);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param message what went wrong; for node errors the node's own message
     * @param status  the node's status, or {@code null} for a client-side failure
     * @param nodeId  the node that answered, or {@code null}
     * @param cause   the underlying failure, or {@code null}
     */
    public AutoDiskException(String message, Status status, String nodeId, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.nodeId = nodeId;
    }

    /**
     * Returns the status the node answered with.
     *
     * @return the status, or {@code null} if the failure was detected by the client
     */
    public Status status() {
        return status;
    }

    /**
     * Returns the node that answered.
     *
     * @return the node id, or {@code null} if no node answered
     */
    public String nodeId() {
        return nodeId;
    }
}
