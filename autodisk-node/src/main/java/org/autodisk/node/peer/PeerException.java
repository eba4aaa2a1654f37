package org.autodisk.node.peer;

import org.autodisk.core.protocol.Status;

/** A peer could not be reached or did not answer in time. */
public class PeerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status status;

    /**
     * Creates the exception.
     *
     * @param status  NODE_UNAVAILABLE or TIMEOUT
     * @param message what happened, naming the peer
     */
    public PeerException(Status status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /**
     * Returns the status to answer the original request with.
     *
     * @return the status
     */
    public Status status() {
        return status;
    }
}
