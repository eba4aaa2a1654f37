package org.autodisk.core.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The cluster map: what {@code status} returns.
 *
 * @param reportedBy  the node that gathered it
 * @param directory   the directory kind ({@code range})
 * @param mapVersion  version of the directory map the reporting node holds
 * @param nodes       every member
 * @param ranges      every key range in key order
 */
public record ClusterStatus(String reportedBy, String directory, long mapVersion, List<NodeStatus> nodes,
        List<RangeStatus> ranges) {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /**
     * Encodes as JSON.
     *
     * @return UTF-8 JSON
     */
    public byte[] toJson() {
        return write(this);
    }

    /**
     * Decodes from JSON.
     *
     * @param json UTF-8 JSON
     * @return the status
     */
    public static ClusterStatus fromJson(byte[] json) {
        return read(json, ClusterStatus.class);
    }

    /**
     * Encodes any status value as JSON.
     *
     * @param value a record of this package
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
     * Decodes any status value from JSON.
     *
     * @param json UTF-8 JSON
     * @param type the record type
     * @param <T>  the type
     * @return the value
     */
    public static <T> T read(byte[] json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + type.getSimpleName() + " JSON", e);
        }
    }
}
