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
     * A data node cut off the network, from every other node and from clients, while it runs on (containers only:
     * {@code docker network disconnect}); connected again when healed.
     */
    PARTITION_DATA,
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
    SLOW_FSYNC_LOG;

    /**
     * Says whether the victim of this kind is a log node.
     *
     * @return true for the faults of a log node
     */
    public boolean ofLogNode() {
        return this == KILL_LOG || this == DISK_FULL_LOG || this == SLOW_FSYNC_LOG;
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
                + "pause-data, partition-data, disk-full-log, disk-full-data, slow-fsync-log");
    }
}
