/**
 * Failure detection by heartbeats, failover of a failed owner's ranges to their backups, and the return of a node
 * declared failed.
 */
package org.autodisk.node.failure;
