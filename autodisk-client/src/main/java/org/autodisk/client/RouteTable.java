package org.autodisk.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.autodisk.core.Keys;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.RangesReport;
import org.autodisk.core.protocol.RouteStamp;

/**
 * The client's copy of the range map, for direct routing: every range in key order with its owner, epoch and
 * generation, the metadata version they come from, and the members' addresses. Immutable; replaced on refresh.
 */
final class RouteTable {

    /** One range as the client routes by it. */
    record Route(int id, byte[] low, String owner, long epoch, long generation) {
    }

    private final long version;
    private final List<Route> routes;
    private final Map<String, Seed> addresses;

    private RouteTable(long version, List<Route> routes, Map<String, Seed> addresses) {
        this.version = version;
        this.routes = routes;
        this.addresses = addresses;
    }

    /**
     * Builds the table from what a node reported.
     *
     * @param ranges the ranges, with the members' addresses
     * @param reach  where this client reaches a member at the address the cluster reports
     * @return the table
     * @throws IllegalArgumentException if there are no ranges (the cluster's metadata is not created yet)
     */
    static RouteTable of(RangesReport ranges, Function<String, Seed> reach) {
        if (ranges.ranges().isEmpty()) {
            throw new IllegalArgumentException("node " + ranges.reportedBy() + " reported no ranges");
        }
        List<Route> routes = new ArrayList<>();
        for (RangeStatus r : ranges.ranges()) {
            routes.add(new Route(r.id(), r.low(), r.owner(), r.epoch(), r.generation()));
        }
        Map<String, Seed> addresses = new HashMap<>();
        ranges.addresses().forEach((id, address) -> addresses.put(id, reach.apply(address)));
        return new RouteTable(ranges.version(), List.copyOf(routes), Map.copyOf(addresses));
    }

    /**
     * Finds the range holding a key.
     *
     * @param key the key
     * @return its route
     */
    Route locate(byte[] key) {
        int lo = 0;
        int hi = routes.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (Keys.compare(routes.get(mid).low(), key) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return routes.get(lo);
    }

    /**
     * Returns a member's address.
     *
     * @param node the node id
     * @return its address, or {@code null} if unknown
     */
    Seed address(String node) {
        return addresses.get(node);
    }

    /**
     * Returns what a request routed by a route is stamped with.
     *
     * @param r the route
     * @return the stamp
     */
    RouteStamp stamp(Route r) {
        return new RouteStamp(r.id(), r.epoch(), r.generation(), version);
    }

    /**
     * Returns the metadata version of the table.
     *
     * @return the version
     */
    long version() {
        return version;
    }
}
