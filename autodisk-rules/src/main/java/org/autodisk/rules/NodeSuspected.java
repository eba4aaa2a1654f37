package org.autodisk.rules;

/**
 * Membership suspects a node to have failed.
 *
 * @param nodeId the suspected node
 * @param reason why it is suspected (missed heartbeats, refused connections...)
 */
public record NodeSuspected(String nodeId, String reason) {
}
