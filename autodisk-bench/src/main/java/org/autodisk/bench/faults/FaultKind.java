package org.autodisk.bench.faults;

import java.util.Locale;

/** The faults the nemesis of a fault run injects, one at a time. */
public enum FaultKind {
    /** {@code kill -9} of a data node; restarted on its data when healed. */
    KILL_DATA,
    /** {@code kill -9} of a log node; restarted when healed. */
    KILL_LOG,
    /** {@code kill -9} of the metadata leader (a data node that votes); restarted when healed. */
    KILL_LEADER,
    /** SIGSTOP of a data node (a stalled process keeps its sockets); SIGCONT when healed. */
    PAUSE_DATA,
    /**
     * A data node cut off the network while it runs on; connected again when healed. On containers
     * ({@code docker network disconnect}) from every other node and from clients; on local processes (through the
     * partition proxy) from every other node, while clients still reach it.
     */
    PARTITION_DATA,
    /**
     * A partial partition: a data node and one other node (of any role) cannot reach each other, while both reach
     * every other node (local processes, through the partition proxy); restored when healed.
     */
    PARTITION_LINK,
    /**
     * An asymmetric partition: what a data node sends one other node, or what that node sends it, is held, while the
     * other direction passes (local processes, through the partition proxy); restored when healed.
     */
    PARTITION_ONEWAY,
    /**
     * A log node's disk full: every write of its journal fails (through its {@code fault.hooks-dir}), so its writers
     * go on without it; healed by freeing the disk and restarting the node (a failed journal takes nothing more).
     */
    DISK_FULL_LOG,
    /**
     * A data node's disk full: every write of its store fails (through its {@code fault.hooks-dir}), so its ranges
     * halt and recover again and again until healed by freeing the disk; the node is not restarted.
     */
    DISK_FULL_DATA,
    /**
     * A log node's fsyncs slowed by 100..800 ms each (through its {@code fault.hooks-dir}); back to normal when
     * healed.
     */
    SLOW_FSYNC_LOG,
    /**
     * A data node's disk reported 97 % full to the balancer (through its {@code fault.hooks-dir}; nothing is written),
     * above {@code balance.shed-disk-used-percent}: its ranges move off it one at a time while other faults come and
     * go; reported as measured again when healed.
     */
    DISK_PRESSURE_DATA,
    /**
     * A data node's file system full for real (local processes as root: each node has a tmpfs of its own, filled by a
     * ballast file): RocksDB's writes and flushes fail with {@code ENOSPC}; healed by deleting the ballast.
     */
    FS_FULL_DATA,
    /**
     * A log node's file system full for real, as {@link #FS_FULL_DATA}: its journal fails; healed by deleting the
     * ballast and restarting the node.
     */
    FS_FULL_LOG;

    /**
     * Says whether the victim of this kind is a log node.
     *
     * @return true for the faults of a log node
     */
    public boolean ofLogNode() {
        return this == KILL_LOG || this == DISK_FULL_LOG || this == SLOW_FSYNC_LOG || this == FS_FULL_LOG;
    }

    /**
     * Says whether this kind cuts one link between two nodes rather than acting on one node.
     *
     * @return true for {@link #PARTITION_LINK} and {@link #PARTITION_ONEWAY}
     */
    public boolean ofLink() {
        return this == PARTITION_LINK || this == PARTITION_ONEWAY;
    }

    /**
     * Says whether this kind is a network partition of any extent.
     *
     * @return true for the partitions
     */
    public boolean partition() {
        return this == PARTITION_DATA || ofLink();
    }

    /**
     * Says whether this kind fills a node's file system for real (which needs a file system per node: root).
     *
     * @return true for {@link #FS_FULL_DATA} and {@link #FS_FULL_LOG}
     */
    public boolean fillsFileSystem() {
        return this == FS_FULL_DATA || this == FS_FULL_LOG;
    }

    /**
     * Returns the name used in reports and on the command line.
     *
     * @return e.g. {@code kill-data}
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Finds a kind by its label.
     *
     * @param label e.g. {@code pause-data}
     * @return the kind
     * @throws IllegalArgumentException naming the labels known
     */
    public static FaultKind of(String label) {
        for (FaultKind k : values()) {
            if (k.label().equals(label)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + label + "'; known: kill-data, kill-log, kill-leader, "
                + "pause-data, partition-data, partition-link, partition-oneway, disk-full-log, disk-full-data, "
                + "slow-fsync-log, disk-pressure-data, fs-full-data, fs-full-log");
    }
}
