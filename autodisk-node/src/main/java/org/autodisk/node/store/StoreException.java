package org.autodisk.node.store;

/** A local store failure (I/O error, corrupt data, directory in use). */
public class StoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed, naming the data directory
     * @param cause   the underlying error
     */
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
