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
 */
public record NodeLoad(String nodeId, String state, int ranges, long keys, long bytes, double requestsPerSecond) {

    /**
     * Tells whether the node can take a range: it is up and its figures are known.
     *
     * @return true when a migration may target it
     */
    public boolean canTake() {
        return "up".equals(state) && bytes >= 0;
    }
}
