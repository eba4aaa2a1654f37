/** The log node's durable storage: per-stream append-only segment files with group-commit fsync and recovery. */
package org.autodisk.node.wal;
