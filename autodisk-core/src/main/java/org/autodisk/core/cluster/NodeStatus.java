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
 */
public record NodeStatus(String id, String role, String address, boolean reachable, long streamCount,
        Map<String, Double> metrics) {
}
