package org.autodisk.node.meta;

/** The metadata could not do what was asked: no majority of voters in time, or a storage or port problem. */
public class MetadataException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what happened, naming the voters or the file
     * @param cause   the underlying failure, or {@code null}
     */
    public MetadataException(String message, Throwable cause) {
        super(message, cause);
    }
}
