package org.autodisk.core;

/**
 * Size limits of stream keys and values, checked by the client before sending and by every node on receipt.
 *
 * @param maxKeyBytes   the longest key accepted (keys are at least one byte)
 * @param maxValueBytes the longest value accepted (values may be empty)
 */
public record Limits(int maxKeyBytes, int maxValueBytes) {

    /** The protocol's hard key limit: keys are 1..1024 bytes. */
    public static final int MAX_KEY_BYTES = 1024;

    /** Default value limit: 4 MiB. */
    public static final int DEFAULT_MAX_VALUE_BYTES = 4 * 1024 * 1024;

    /** Extra frame room above the largest value, for the key, header and trace trailer. */
    public static final int FRAME_OVERHEAD_BYTES = 64 * 1024;

    /** The default limits: 1024-byte keys, 4 MiB values. */
    public static final Limits DEFAULT = new Limits(MAX_KEY_BYTES, DEFAULT_MAX_VALUE_BYTES);

    /**
     * Validates the limits themselves.
     *
     * @throws IllegalArgumentException if a limit is out of its range
     */
    public Limits {
        if (maxKeyBytes < 1 || maxKeyBytes > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("maxKeyBytes must be 1.." + MAX_KEY_BYTES + ", was " + maxKeyBytes);
        }
        if (maxValueBytes < 0 || maxValueBytes > Integer.MAX_VALUE - FRAME_OVERHEAD_BYTES) {
            throw new IllegalArgumentException("maxValueBytes must be >= 0 and leave room for a frame, was "
                    + maxValueBytes);
        }
    }

    /**
     * Returns the largest frame that can carry a value of the maximum size.
     *
     * @return the frame size limit implied by these limits
     */
    public int maxFrameBytes() {
        return maxValueBytes + FRAME_OVERHEAD_BYTES;
    }

    /**
     * Checks a key against these limits.
     *
     * @param key the key
     * @return {@code null} if valid, else a message that names the limit
     */
    public String checkKey(byte[] key) {
        if (key == null || key.length == 0) {
            return "key is empty: keys must be 1.." + maxKeyBytes + " bytes";
        }
        if (key.length > maxKeyBytes) {
            return "key is " + key.length + " bytes: keys must be 1.." + maxKeyBytes + " bytes";
        }
        return null;
    }

    /**
     * Checks a value against these limits.
     *
     * @param value the value
     * @return {@code null} if valid, else a message that names the limit
     */
    public String checkValue(byte[] value) {
        if (value == null) {
            return "value is missing";
        }
        if (value.length > maxValueBytes) {
            return "value is " + value.length + " bytes: the limit (limits.max-value-bytes) is " + maxValueBytes
                    + " bytes";
        }
        return null;
    }
}
