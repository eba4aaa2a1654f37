package org.autodisk.client;

/**
 * What a host-driven move of a range cost ({@link AutoDiskAdmin#moveByHost}).
 *
 * @param migrationId the migration that recorded it
 * @param streams     streams the host read and wrote
 * @param bytes       bytes of their keys and values
 * @param copyNanos   from the start of the migration to the host's last write acknowledged
 * @param totalNanos  from the start of the migration to its end (the target caught up, cut over and the source
 *                    dropped its copy)
 */
public record HostMoveResult(long migrationId, long streams, long bytes, long copyNanos, long totalNanos) {
}
