package org.autodisk.rules;

/**
 * One data node's share of the cluster, as the balancer sees it at one round (balance.drl).
 *
 * @param nodeId            the data node
 * @param state             its member state ({@code up}, {@code joining}, {@code suspected}, {@code failed},
 *                          {@code leaving})
 * @param ranges            the ranges it owns
 * @param keys              the streams in them ({@code -1}: the node did not answer)
 * @param bytes             the bytes of their keys and values ({@code -1}: the node did not answer)
 * @param requestsPerSecond the stream requests it served per second as the owner of its ranges (the sum of their
 *                          {@link RangeLoad#requestsPerSecond}; {@code -1}: unknown)
 * @param diskFreeBytes     the bytes still free on the disk its data directory is on ({@code -1}: unknown)
 * @param diskTotalBytes    that disk's size ({@code -1}: unknown)
 */
public record NodeLoad(String nodeId, String state, int ranges, long keys, long bytes, double requestsPerSecond,
        long diskFreeBytes, long diskTotalBytes) {

    /**
     * A node whose disk is not known.
     *
     * @param nodeId            the data node
     * @param state             its member state
     * @param ranges            the ranges it owns
     * @param keys              the streams in them ({@code -1}: unknown)
     * @param bytes             their bytes ({@code -1}: unknown)
     * @param requestsPerSecond its request rate ({@code -1}: unknown)
     */
    public NodeLoad(String nodeId, String state, int ranges, long keys, long bytes, double requestsPerSecond) {
        this(nodeId, state, ranges, keys, bytes, requestsPerSecond, -1, -1);
    }

    /**
     * Returns how full the node's disk is.
     *
     * @return the share of it not free, in percent ({@code -1}: unknown)
     */
    public double diskUsedPercent() {
        return diskTotalBytes <= 0 || diskFreeBytes < 0 ? -1
                : 100.0 * Math.max(0, diskTotalBytes - diskFreeBytes) / diskTotalBytes;
    }

    /**
     * Tells whether the node's disk has room for more: it is used at most {@code maxUsedPercent}, or not known.
     *
     * @param maxUsedPercent the fullest a disk may be and still take a range (balance.max-disk-used-percent)
     * @return false when the disk is known to be fuller
     */
    public boolean hasRoom(double maxUsedPercent) {
        return diskUsedPercent() <= maxUsedPercent;
    }

    /**
     * Returns how many bytes the node can take before its disk is fuller than {@code maxUsedPercent}.
     *
     * @param maxUsedPercent the fullest a disk may be after taking a range (balance.max-disk-used-percent)
     * @return the bytes ({@link Long#MAX_VALUE} when the disk is not known, 0 when it is too full already)
     */
    public long roomBytes(double maxUsedPercent) {
        if (diskTotalBytes <= 0 || diskFreeBytes < 0) {
            return Long.MAX_VALUE;
        }
        long keep = (long) Math.ceil(diskTotalBytes * (100 - maxUsedPercent) / 100.0);
        return Math.max(0, diskFreeBytes - keep);
    }

    /**
     * Tells whether the node can take a range: it is up and its figures are known.
     *
     * @return true when a migration may target it
     */
    public boolean canTake() {
        return "up".equals(state) && bytes >= 0;
    }
}
