package org.autodisk.core.config;

/** A configuration that cannot be used: unknown key, wrong type, missing required value or bad file. */
public class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the key and, where known, the file
     */
    public ConfigException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param message what is wrong
     * @param cause   the underlying failure
     */
    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
