package org.autodisk.core.cluster;

import java.util.List;

/**
 * Every range of the cluster, as {@code ranges} prints them: the committed descriptors with what their owners hold.
 *
 * @param reportedBy the node that gathered it
 * @param directory  the directory kind ({@code range})
 * @param version    the metadata version the descriptors come from
 * @param ranges     every range in key order
 */
public record RangesReport(String reportedBy, String directory, long version, List<RangeStatus> ranges) {

    /** Copies the list. */
    public RangesReport {
        ranges = List.copyOf(ranges);
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
