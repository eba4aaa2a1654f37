package org.autodisk.core.cluster;

import java.util.List;
import java.util.Map;

/**
 * Every range of the cluster, as {@code ranges} prints them: the committed descriptors with what their owners hold.
 *
 * @param reportedBy the node that gathered it
 * @param directory  the directory kind ({@code range})
 * @param version    the metadata version the descriptors come from
 * @param ranges     every range in key order
 * @param addresses  every member's address ({@code host:port}) by node id, as the metadata records it
 */
public record RangesReport(String reportedBy, String directory, long version, List<RangeStatus> ranges,
        Map<String, String> addresses) {

    /** Copies the collections; treats missing addresses (JSON from an older node) as none. */
    public RangesReport {
        ranges = List.copyOf(ranges);
        addresses = addresses == null ? Map.of() : Map.copyOf(addresses);
    }

    /**
     * Encodes as JSON.
     *
     * @return UTF-8 JSON
     */
    public byte[] toJson() {
        return ClusterStatus.write(this);
    }

    /**
     * Decodes from JSON.
     *
     * @param json UTF-8 JSON
     * @return the report
     */
    public static RangesReport fromJson(byte[] json) {
        return ClusterStatus.read(json, RangesReport.class);
    }
}
