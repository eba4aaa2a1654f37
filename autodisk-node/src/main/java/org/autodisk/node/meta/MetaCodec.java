package org.autodisk.node.meta;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON form of the metadata's commands, results and states: in the Raft log, in snapshots, on the wire to the
 * admin commands. Unknown fields are ignored, so a newer node's additions do not break an older reader.
 */
public final class MetaCodec {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private MetaCodec() {
    }

    /**
     * Encodes a value.
     *
     * @param value a command, result or state
     * @return UTF-8 JSON
     */
    public static byte[] write(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Decodes a value.
     *
     * @param json UTF-8 JSON
     * @param type its type
     * @param <T>  the type
     * @return the value
     * @throws IllegalArgumentException if the JSON is not of that type
     */
    public static <T> T read(byte[] json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + type.getSimpleName() + " from JSON: "
                    + e.getMessage(), e);
        }
    }
}
