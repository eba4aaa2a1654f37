/** Tests of the log node's durable storage: contract, segment files, recovery, group commit, faults. */
package org.autodisk.node.wal;
