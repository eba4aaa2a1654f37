package org.autodisk.core.cluster;

import java.util.Map;

/**
 * One node as the cluster map reports it.
 *
 * @param id          node id
 * @param role        {@code data} or {@code log}
 * @param address     host:port the node serves on
 * @param reachable   whether the reporting node could reach it just now
 * @param streamCount streams stored as primary (0 for log nodes or unreachable nodes)
 * @param metrics     named figures (queue depth, requests served, queue wait percentiles in microseconds, ...)
 * @param metadata    the node's metadata replica: {@code address}, {@code role} (leader, follower, candidate,
 *                    listener), {@code leader}, {@code version}; empty if unknown
 * @param state       where the member stands as the cluster metadata records it ({@code up}, {@code failed},
 *                    {@code joining}, ...); empty if unknown
 * @param lastHeardMs how long ago the reporting node's failure detector last heard from it (0 for the reporting
 *                    node itself, -1 if never since it started or unknown)
 */
public record NodeStatus(String id, String role, String address, boolean reachable, long streamCount,
        Map<String, Double> metrics, Map<String, String> metadata, String state, long lastHeardMs) {

    /** Treats a missing metadata map or state (JSON from an older node) as empty. */
    public NodeStatus {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        state = state == null ? "" : state;
    }

    /**
     * Creates a status without the member's state.
     *
     * @param id          node id
     * @param role        data or log
     * @param address     host:port
     * @param reachable   whether it answered
     * @param streamCount streams stored
     * @param metrics     named figures
     * @param metadata    the node's metadata replica
     */
    public NodeStatus(String id, String role, String address, boolean reachable, long streamCount,
            Map<String, Double> metrics, Map<String, String> metadata) {
        this(id, role, address, reachable, streamCount, metrics, metadata, "", -1);
    }

    /**
     * Returns this status with the member's state and when the reporting node last heard from it.
     *
     * @param memberState the state
     * @param heardMs     milliseconds since last heard, -1 if unknown
     * @return the status
     */
    public NodeStatus heard(String memberState, long heardMs) {
        return new NodeStatus(id, role, address, reachable, streamCount, metrics, metadata, memberState, heardMs);
    }

    /**
     * Creates a status without metadata facts.
     *
     * @param id          node id
     * @param role        data or log
     * @param address     host:port
     * @param reachable   whether it answered
     * @param streamCount streams stored
     * @param metrics     named figures
     */
    public NodeStatus(String id, String role, String address, boolean reachable, long streamCount,
            Map<String, Double> metrics) {
        this(id, role, address, reachable, streamCount, metrics, Map.of());
    }
}
