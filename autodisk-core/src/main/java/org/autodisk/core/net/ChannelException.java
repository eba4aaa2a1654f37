package org.autodisk.core.net;

import org.autodisk.core.protocol.Status;

/**
 * Why a request on a {@link RequestChannel} got no answer. Clients and nodes turn it into their own errors;
 * {@link #written()} tells whether the other side may have received the request.
 */
public final class ChannelException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What happened. */
    public enum Kind {
        /** The connection could not be opened. */
        UNREACHABLE,
        /** The connection was down before the request was written. */
        NOT_SENT,
        /** The connection closed after the request was written, before its answer. */
        LOST,
        /** No answer came within the request's deadline; the connection stays open. */
        DEADLINE,
        /** The other side answered with an error for the whole connection and closes it. */
        DISMISSED,
        /** The answer could not be read. */
        UNREADABLE
    }

    private final Kind kind;
    private final transient Status status;
    private final boolean written;

    /**
     * Creates the exception.
     *
     * @param kind    what happened
     * @param status  the other side's status ({@link Kind#DISMISSED}) or the decoder's ({@link Kind#UNREADABLE}),
     *                else {@code null}
     * @param written whether the request had been written to the connection
     * @param message what happened, naming the node and the request
     * @param cause   the underlying failure, or {@code null}
     */
    public ChannelException(Kind kind, Status status, boolean written, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.status = status;
        this.written = written;
    }

    /**
     * Returns what happened.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Returns the status that came with the failure.
     *
     * @return the status, or {@code null}
     */
    public Status status() {
        return status;
    }

    /**
     * Tells whether the other side may have received the request.
     *
     * @return true if it was written before the failure
     */
    public boolean written() {
        return written;
    }
}
