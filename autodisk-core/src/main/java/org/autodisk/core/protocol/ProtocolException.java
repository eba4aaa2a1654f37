package org.autodisk.core.protocol;

/** A frame or body that does not follow the protocol; carries the status the receiver answers with. */
public class ProtocolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status status;

    /**
     * Creates the exception.
     *
     * @param status  the status to answer with
     * @param message what is wrong, naming the field or limit
     */
    public ProtocolException(Status status, String message) {
        super(message);
        this.status = status;
    }

    /**
     * Returns the status that describes the violation.
     *
     * @return the status
     */
    public Status status() {
        return status;
    }
}
