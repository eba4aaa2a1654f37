package org.autodisk.node.directory;

import org.autodisk.core.protocol.RouteStamp;
import org.autodisk.node.meta.RangeDescriptor;

/**
 * Where a request for a key goes from this node.
 *
 * @param range      the range holding the key as this node knows it, or {@code null} when this node knows only the
 *                   next hop (a directory that holds only the index above its own ranges)
 * @param servedHere whether this node owns the range and serves the request itself
 * @param nextHop    the node to forward to when not served here ({@code null} when served here)
 * @param version    the metadata version of the map this placement comes from
 */
public record Placement(RangeDescriptor range, boolean servedHere, String nextHop, long version) {

    /**
     * Returns the range id for rule events and messages.
     *
     * @return the id, or -1 when the range is not known here
     */
    public int rangeId() {
        return range == null ? -1 : range.id();
    }

    /**
     * Returns what a request forwarded by this placement is stamped with.
     *
     * @return range id, epoch and generation (-1, 0, 0 if the range is not known here) and the map's version
     */
    public RouteStamp stamp() {
        return range == null ? new RouteStamp(-1, 0, 0, version)
                : new RouteStamp(range.id(), range.epoch(), range.generation(), version);
    }
}
