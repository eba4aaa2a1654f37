package org.autodisk.client;

import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.Keys;

/** Some inserts of a batch failed; the others were stored. Lists every failed key with its cause. */
public final class BatchInsertException extends AutoDiskException {

    private static final long serialVersionUID = 1L;

    /** The failed inserts, in batch order. */
    private final transient List<Failure> failures;

    /** How many inserts the batch had. */
    private final int batchSize;

    /**
     * One failed insert of a batch.
     *
     * @param key   the key that was not stored
     * @param cause why
     */
    public record Failure(byte[] key, AutoDiskException cause) {

        /**
         * Returns the key as UTF-8 text.
         *
         * @return the key decoded as UTF-8
         */
        public String keyString() {
            return new String(key, java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "Failure[key=" + Keys.render(key) + ", cause=" + cause + "]";
        }
    }

    /**
     * Creates the exception.
     *
     * @param failures  the failed inserts, not empty
     * @param batchSize how many inserts the batch had
     */
    public BatchInsertException(List<Failure> failures, int batchSize) {
        super(message(failures, batchSize), null, null, failures.get(0).cause());
        this.failures = List.copyOf(failures);
        this.batchSize = batchSize;
    }

    private static String message(List<Failure> failures, int batchSize) {
        Failure first = failures.get(0);
        return failures.size() + " of " + batchSize + " inserts failed; first: key " + Keys.render(first.key())
                + ": " + first.cause().getMessage();
    }

    /**
     * Returns the failed inserts with their causes.
     *
     * @return failures in batch order
     */
    public List<Failure> failures() {
        return failures;
    }

    /**
     * Returns the keys that were not stored.
     *
     * @return the failed keys in batch order
     */
    public List<byte[]> failedKeys() {
        List<byte[]> keys = new ArrayList<>(failures.size());
        for (Failure f : failures) {
            keys.add(f.key());
        }
        return keys;
    }

    /**
     * Returns how many inserts the batch had.
     *
     * @return the batch size
     */
    public int batchSize() {
        return batchSize;
    }
}
