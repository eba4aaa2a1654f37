package org.autodisk.core.cluster;

/**
 * The names of a node's metrics, defined once: a node registers its Micrometer meters under them, and the same
 * names are the keys of {@link NodeStatus#metrics()}. A timer appears there as {@code name.p50.us} and
 * {@code name.p99.us} ({@link #p50}, {@link #p99}); a meter kept per log stream as {@code name.stream}
 * ({@link #perStream}).
 */
public final class MetricNames {

    /** Counter: requests taken from the queue by a worker. */
    public static final String REQUESTS = "requests";
    /** Counter: requests forwarded to another node. */
    public static final String FORWARDED = "forwarded";
    /** Counter: requests refused because the queue was full. */
    public static final String OVERLOADED = "overloaded";
    /** Counter: requests answered with an error. */
    public static final String ERRORS = "errors";
    /** Gauge: requests waiting in the queue now. */
    public static final String QUEUE_DEPTH = "queue.depth";
    /** Timer: time from arrival to the start of work. */
    public static final String QUEUE_WAIT = "queue.wait";
    /** Timer: time from arrival to the reply. */
    public static final String SERVICE = "service";
    /** Timer: time the rules took to decide a request. */
    public static final String RULES = "rules";
    /** Counter: evaluations in which a rule threw. */
    public static final String RULE_FAILURES = "rules.failures";
    /** Counter: alerts raised by rules. */
    public static final String RULE_ALERTS = "rules.alerts";
    /** Gauge (data node): 1 while some range's ledger is written to fewer log nodes than wal.multiplicity, else 0. */
    public static final String WAL_DEGRADED = "wal.degraded";
    /** Counter (log node): ledger entries made durable in its journal. */
    public static final String LEDGER_ENTRIES = "ledger.entries";
    /** Counter (log node): fsyncs of its journal of ledgers. */
    public static final String LEDGER_SYNCS = "ledger.syncs";
    /** Gauge (log node): ledger entries per journal fsync since start. */
    public static final String LEDGER_ENTRIES_PER_SYNC = "ledger.entries-per-sync";
    /** Gauge per data node (log node): ledger entries of that node's ranges its backup lacks. */
    public static final String BACKUP_LAG = "backup-lag";

    /** Counter: routed requests answered STALE_MAP (the sender had an older map and the key is not served here). */
    public static final String ROUTE_STALE_REPLIES = "route.stale-replies";
    /** Counter: routed requests that waited for this node's metadata to reach the sender's version. */
    public static final String ROUTE_METADATA_WAITS = "route.metadata-waits";
    /** Counter: requests routed again after a STALE_MAP answer, once this node caught up. */
    public static final String ROUTE_REROUTES = "route.reroutes";
    /** Timer: time from a metadata change's proposal to its apply on this node's replica. */
    public static final String METADATA_APPLY_LAG = "metadata.apply-lag";
    /**
     * Counters: milliseconds this node's migrations spent on each part as their target, named by appending the part:
     * {@code source-wait}, {@code store}, {@code flush}, {@code commit}, {@code throttle}, {@code catch-up},
     * {@code serve}.
     */
    public static final String MIGRATION_MS = "migration.ms.";
    /** Counter: migrations this node cut over as their target. */
    public static final String MIGRATION_CUTOVERS = "migration.cutovers";
    /**
     * Counter: milliseconds the writes of ranges moved to this node waited at their cutovers, each from the former
     * owner's stop (its clock, sent with its handover) until this node served the range; summed.
     */
    public static final String MIGRATION_PAUSED_MS = "migration.paused-ms";

    private MetricNames() {
    }

    /**
     * Returns the status key of a timer's median.
     *
     * @param timer the timer's name
     * @return e.g. {@code queue.wait.p50.us}
     */
    public static String p50(String timer) {
        return timer + ".p50.us";
    }

    /**
     * Returns the status key of a timer's 99th percentile.
     *
     * @param timer the timer's name
     * @return e.g. {@code queue.wait.p99.us}
     */
    public static String p99(String timer) {
        return timer + ".p99.us";
    }

    /**
     * Returns the status key of a meter kept per log stream.
     *
     * @param name   the meter's name
     * @param stream the data node whose log it is
     * @return e.g. {@code backup-lag.d1}
     */
    public static String perStream(String name, String stream) {
        return name + "." + stream;
    }
}
