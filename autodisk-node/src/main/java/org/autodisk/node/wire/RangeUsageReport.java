package org.autodisk.node.wire;

import java.util.Map;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.node.store.DiskSpace;
import org.autodisk.node.store.RangeUsage;

/**
 * A data node's answer to RANGE_USAGE: what it holds of each range it owns by the metadata it has applied.
 *
 * @param nodeId  the node
 * @param version the metadata version it measured by
 * @param ranges  keys and bytes by range id
 * @param disk    the space of the disk its data directory is on ({@code null}: not measured, or a node from before
 *                the field)
 */
public record RangeUsageReport(String nodeId, long version, Map<Integer, RangeUsage> ranges, DiskSpace disk) {

    /** Copies the map. */
    public RangeUsageReport {
        ranges = Map.copyOf(ranges);
    }

    /**
     * Encodes as JSON.
     *
     * @return UTF-8 JSON
     */
    public byte[] encode() {
        return ClusterStatus.write(this);
    }

    /**
     * Decodes from JSON.
     *
     * @param json UTF-8 JSON
     * @return the report
     */
    public static RangeUsageReport decode(byte[] json) {
        return ClusterStatus.read(json, RangeUsageReport.class);
    }
}
