package org.autodisk.node.lifecycle;

/** The steps of a node's start-up, in order; each opens what the steps after it use. */
public enum StartupStep {
    /** Data node: open the store. */
    STORE,
    /** Data node: open the backup copies. */
    BACKUPS,
    /** Log node: open (and replay) the journal of ledgers. */
    LEDGER_JOURNAL,
    /** Start the network event loops. */
    EVENT_LOOPS,
    /** Start the request queue's workers. */
    QUEUE,
    /** Open the peer channel (connections are made on first use). */
    PEERS,
    /** Start the metadata replica (Ratis) and, on a voter, propose the cluster's creation until it exists. */
    METADATA,
    /** The directory: the range table, or the Fat-Btree's thread and page messages. */
    DIRECTORY,
    /** Joining data node: the metadata adds it as a member ({@code joining}), once its replica follows the group. */
    JOIN,
    /**
     * Take the compiled rules: the rule files compile on a thread of their own from the start of the start-up, so
     * that the compile overlaps the steps before this one.
     */
    RULES,
    /** Data node: open the log of its ranges (each recovers and replays its ledgers, then opens its own). */
    WRITE_AHEAD_LOG,
    /** Data node: prepare the load reports for the rules. */
    LOAD_REPORTS,
    /** Data node: prepare the range checks that report range sizes to the split rules. */
    RANGE_CHECKS,
    /** Data node: prepare its part in migrations (source snapshots, target copies, clean-up). */
    MIGRATIONS,
    /** Data node: the balancer (balance rounds on the balancing node). */
    BALANCER,
    /** Data node: the periodic sweep of stray spans (streams of ranges the metadata places elsewhere). */
    STRAY_SWEEP,
    /** Log node: prepare the backup catch-up from its ledgers. */
    CATCH_UP,
    /** Prepare failure detection (heartbeats), failover coordination and the rejoin of a node declared failed. */
    FAILURES,
    /** Bind the server socket. */
    SERVER,
    /** Bind the Prometheus endpoint (when {@code metrics.http-port} is set). */
    METRICS,
    /** Start background work (load reports, range checks, catch-up). */
    BACKGROUND,
    /** Joining data node: the metadata marks it {@code up}; the balance rules may then move ranges to it. */
    JOINED
}
