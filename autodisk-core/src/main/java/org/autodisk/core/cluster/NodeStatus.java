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
 */
public record NodeStatus(String id, String role, String address, boolean reachable, long streamCount,
        Map<String, Double> metrics, Map<String, String> metadata) {

    /** Treats a missing metadata map (JSON from an older node) as empty. */
    public NodeStatus {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
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
