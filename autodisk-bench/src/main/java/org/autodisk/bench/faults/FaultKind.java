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
    PAUSE_DATA;

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
                + "pause-data");
    }
}
