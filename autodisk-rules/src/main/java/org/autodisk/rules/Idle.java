package org.autodisk.rules;

/**
 * A node's disk has been idle for a while.
 *
 * @param nodeId the idle node
 * @param idleMillis how long the disk has been idle
 * @param breakEvenMillis the idle time beyond which a standby saves energy
 */
public record Idle(String nodeId, long idleMillis, long breakEvenMillis) {
}
