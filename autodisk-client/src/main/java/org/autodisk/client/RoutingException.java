package org.autodisk.client;

import org.autodisk.core.protocol.Status;

/**
 * The request could not be routed: forwarding exceeded the hop limit ({@code HOP_LIMIT_EXCEEDED}) or the nodes' maps
 * still disagreed after catching up ({@code STALE_MAP}).
 */
public final class RoutingException extends AutoDiskException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong; for node errors the node's own message
     * @param status  the node's status, or {@code null} for a client-side failure
     * @param nodeId  the node that answered, or {@code null}
     */
    public RoutingException(String message, Status status, String nodeId) {
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
    public RoutingException(String message, Status status, String nodeId, Throwable cause) {
        super(message, status, nodeId, cause);
    }
}
