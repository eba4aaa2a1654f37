package org.autodisk.rules;

/**
 * A node's periodic load figures; the engine keeps the latest report of every node for the load rules.
 *
 * @param nodeId the reporting node
 * @param requestsPerSecond the requests it served per second
 * @param streamCount the streams (ranges) it owns
 * @param queueDepth the requests waiting in its queue
 */
public record LoadReport(String nodeId, double requestsPerSecond, int streamCount, int queueDepth) {
}
