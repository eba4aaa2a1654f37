package org.autodisk.rules;

/**
 * One range as the balancer sees it at one round (balance.drl).
 *
 * @param rangeId the range
 * @param span    its key span, for messages
 * @param owner   the data node that serves it
 * @param state   its state ({@code serving}, {@code splitting}, {@code migrating}, ...)
 * @param movable whether a migration may move it now: it serves, has log nodes, and no migration moves it
 * @param keys    the streams in it ({@code -1}: its owner did not answer)
 * @param bytes   the bytes of its keys and values ({@code -1}: its owner did not answer)
 * @param requestsPerSecond the stream requests its owner served for it per second over the owner's last complete
 *                          window of 10 s ({@code -1}: its owner did not answer)
 * @param backup  the data node that holds its backup copy ({@code ""}: none - a migration's target was its backup,
 *                or a fill has not finished)
 */
public record RangeLoad(int rangeId, String span, String owner, String state, boolean movable, long keys,
        long bytes, double requestsPerSecond, String backup) {

    /** Checks the fields. */
    public RangeLoad {
        backup = backup == null ? "" : backup;
    }

    /**
     * A range with a rate and without a backup.
     *
     * @param rangeId the range
     * @param span    its key span
     * @param owner   the data node that serves it
     * @param state   its state
     * @param movable whether a migration may move it now
     * @param keys    the streams in it
     * @param bytes   the bytes of its keys and values
     * @param requestsPerSecond its request rate
     */
    public RangeLoad(int rangeId, String span, String owner, String state, boolean movable, long keys, long bytes,
            double requestsPerSecond) {
        this(rangeId, span, owner, state, movable, keys, bytes, requestsPerSecond, "");
    }

    /**
     * A range whose request rate is unknown.
     *
     * @param rangeId the range
     * @param span    its key span
     * @param owner   the data node that serves it
     * @param state   its state
     * @param movable whether a migration may move it now
     * @param keys    the streams in it
     * @param bytes   the bytes of its keys and values
     */
    public RangeLoad(int rangeId, String span, String owner, String state, boolean movable, long keys, long bytes) {
        this(rangeId, span, owner, state, movable, keys, bytes, -1, "");
    }
}
