package org.autodisk.node.wal;

/** Log records could not be made durable or read back (I/O error, disk full, corrupt file, store closed). */
public class LogStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed, naming the store directory or file
     */
    public LogStoreException(String message) {
        super(message);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed, naming the store directory or file and the cause
     * @param cause   the underlying error
     */
    public LogStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
