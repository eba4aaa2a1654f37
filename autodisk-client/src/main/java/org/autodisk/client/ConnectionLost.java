package org.autodisk.client;

/**
 * A request failed because its connection was down or dropped. Internal: the dispatcher decides from
 * {@link #written()} whether the request may be retried on another seed, and reports a
 * {@link NodeUnavailableException} if not.
 */
final class ConnectionLost extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Whether the request had been written to the connection before it was lost. */
    private final boolean written;

    /** The node of the lost connection, or {@code null} before the handshake. */
    private final String nodeId;

    ConnectionLost(String message, boolean written, String nodeId, Throwable cause) {
        super(message, cause);
        this.written = written;
        this.nodeId = nodeId;
    }

    /**
     * Tells whether the node may have received the request.
     *
     * @return true if the request was written before the connection was lost
     */
    boolean written() {
        return written;
    }

    /**
     * Converts to the public exception.
     *
     * @return a node-unavailable exception with this message
     */
    NodeUnavailableException toPublic() {
        return new NodeUnavailableException(getMessage(), null, nodeId, getCause());
    }

    /**
     * Converts a write that was written before the connection was lost: it may or may not have been carried out.
     *
     * @return an outcome-unknown exception saying so
     */
    OutcomeUnknownException unknownOutcome() {
        return new OutcomeUnknownException(getMessage() + "; the write may or may not have been carried out (retrying "
                + "an insert or a delete is safe)", null, nodeId, getCause());
    }
}
