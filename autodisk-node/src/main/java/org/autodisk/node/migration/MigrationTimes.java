package org.autodisk.node.migration;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.autodisk.core.cluster.MetricNames;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.node.rangelog.WriteAheadLog;

/**
 * Where a target's migrations spend their time, summed over every migration this node received since it started
 * (a breakdown like the seed's Table 11): registered as counters {@code migration.ms.<part>}, in milliseconds, so
 * that a benchmark reads the difference a move makes.
 */
final class MigrationTimes {

    /** The parts of a move as the target sees it. */
    enum Part {
        /** Waiting for the source's chunks: its snapshot read and encoding, and the network. */
        SOURCE_WAIT("source-wait"),
        /** Writing the chunks into this store. */
        STORE("store"),
        /** Making the copy durable (flushes) before recording progress and before the cutover. */
        FLUSH("flush"),
        /** Metadata commits on the copy's path: the last progress record and the cutover. */
        COMMIT("commit"),
        /** Sleeping to keep to the throttle. */
        THROTTLE("throttle"),
        /** Reading the range's ledgers from the log nodes and applying them. */
        CATCH_UP("catch-up"),
        /** From the cutover's commit until this node serves the range (the source's close, the replay). */
        SERVE("serve");

        private final String label;

        Part(String label) {
            this.label = label;
        }

        /** @return the part's name in the counter {@code migration.ms.<name>} */
        String label() {
            return label;
        }
    }

    private final Map<Part, LongAdder> nanos = new EnumMap<>(Part.class);
    private final LongAdder moves = new LongAdder();

    MigrationTimes() {
        for (Part p : Part.values()) {
            nanos.put(p, new LongAdder());
        }
    }

    /** Registers the counters; the pause of writes at the cutovers comes from the node's log. */
    void register(NodeMetrics metrics, WriteAheadLog wal) {
        for (Part p : Part.values()) {
            metrics.functionCounter(MetricNames.MIGRATION_MS + p.label(), "milliseconds this node's migrations spent "
                    + "on " + p.label() + " as their target", nanos.get(p), n -> n.sum() / 1e6);
        }
        metrics.functionCounter(MetricNames.MIGRATION_CUTOVERS, "migrations this node cut over as their target",
                moves, LongAdder::sum);
        metrics.functionCounter(MetricNames.MIGRATION_PAUSED_MS, "milliseconds writes of ranges moved to this node "
                + "waited at their cutovers", wal, WriteAheadLog::cutoverPausedMillis);
    }

    /** Adds the time since {@code startNanos} to a part. */
    void add(Part part, long startNanos) {
        nanos.get(part).add(System.nanoTime() - startNanos);
    }

    void cutOver() {
        moves.increment();
    }
}
