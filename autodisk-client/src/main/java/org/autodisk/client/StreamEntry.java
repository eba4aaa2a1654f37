package org.autodisk.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.autodisk.core.Keys;

/**
 * A stream: its key and value. Equality, hash code and string form go by content. The arrays are not copied;
 * do not change them after handing them over.
 *
 * @param key   the key bytes
 * @param value the value bytes
 */
public record StreamEntry(byte[] key, byte[] value) {

    /** Longest value shown in full by {@link #toString()}. */
    private static final int PREVIEW_BYTES = 64;

    /**
     * Checks that neither part is {@code null}.
     *
     * @throws NullPointerException if the key or value is {@code null}
     */
    public StreamEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    /**
     * Creates an entry from UTF-8 text.
     *
     * @param key   the key text
     * @param value the value text
     * @return the entry
     */
    public static StreamEntry of(String key, String value) {
        return new StreamEntry(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Returns the key as UTF-8 text.
     *
     * @return the key decoded as UTF-8
     */
    public String keyString() {
        return new String(key, StandardCharsets.UTF_8);
    }

    /**
     * Returns the value as UTF-8 text.
     *
     * @return the value decoded as UTF-8
     */
    public String valueString() {
        return new String(value, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StreamEntry e && Arrays.equals(key, e.key) && Arrays.equals(value, e.value);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "StreamEntry[key=" + Keys.render(key) + ", value=" + render(value) + "]";
    }

    private static String render(byte[] bytes) {
        if (bytes.length <= PREVIEW_BYTES) {
            return Keys.render(bytes);
        }
        return Keys.render(Arrays.copyOf(bytes, PREVIEW_BYTES)) + "... (" + bytes.length + " bytes)";
    }
}
