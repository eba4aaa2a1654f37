package org.autodisk.node.peer;

import org.autodisk.core.protocol.Status;

/** A peer could not be reached or did not answer in time. */
public class PeerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status status;
    private final boolean written;

    /**
     * Creates the exception for a request the peer never got.
     *
     * @param status  NODE_UNAVAILABLE or TIMEOUT
     * @param message what happened, naming the peer
     */
    public PeerException(Status status, String message) {
        this(status, message, false);
    }

    /**
     * Creates the exception.
     *
     * @param status  NODE_UNAVAILABLE or TIMEOUT
     * @param message what happened, naming the peer
     * @param written whether the request had been written to the connection (the peer may have carried it out)
     */
    public PeerException(Status status, String message, boolean written) {
        super(message, null, false, false);
        this.status = status;
        this.written = written;
    }

    /**
     * Tells whether the request may have reached the peer before the failure.
     *
     * @return true if it had been written to the connection
     */
    public boolean written() {
        return written;
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
