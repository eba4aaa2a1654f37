package org.autodisk.node.config;

import java.util.List;
import org.autodisk.core.Limits;
import org.autodisk.core.config.ConfigKey;
import org.autodisk.rules.RuleConfig;

/** Every node configuration key, with its default, type and one-line documentation. */
public final class NodeConfigKeys {

    /** This node's id; must appear in {@code cluster.nodes}. */
    public static final ConfigKey<String> NODE_ID = ConfigKey.of("node.id", String.class, null,
            "This node's id; must be one of cluster.nodes.");
    /** Address to bind. */
    public static final ConfigKey<String> LISTEN = ConfigKey.of("node.listen", String.class, "",
            "host:port to bind; empty means the node's own address in cluster.nodes.");
    /** Data directory. */
    public static final ConfigKey<String> DATA_DIR = ConfigKey.of("node.data-dir", String.class,
            "autodisk-data", "Directory of this node's store; the node id is appended as a subdirectory.");
    /** Member list. */
    @SuppressWarnings("rawtypes")
    public static final ConfigKey<List> CLUSTER_NODES = ConfigKey.of("cluster.nodes", List.class, null,
            "Every member: YAML list of {id, role: data|log, address: host:port}, or id=role@host:port,...");
    /** Seeds of a running cluster to join. */
    @SuppressWarnings("rawtypes")
    public static final ConfigKey<List> CLUSTER_JOIN = ConfigKey.of("cluster.join", List.class, List.of(),
            "host:port of running nodes a new data node joins the cluster through; cluster.nodes then needs to name "
                    + "only this node (the others are learnt from the cluster).");
    /** Cluster secret. */
    public static final ConfigKey<String> CLUSTER_SECRET = ConfigKey.secret("cluster.secret",
            "Secret every node of the cluster shares (at least 16 characters) to prove membership by HMAC challenge; "
                    + "never sent. Required with more than one node, unless cluster.secret-file is set.");
    /** Cluster secret from a file. */
    public static final ConfigKey<String> CLUSTER_SECRET_FILE = ConfigKey.of("cluster.secret-file", String.class,
            "", "File whose first line is cluster.secret (instead of the key itself).");
    /** Directory kind. */
    public static final ConfigKey<String> DIRECTORY = ConfigKey.of("cluster.directory", String.class, "range",
            "Directory kind chosen at cluster creation: range (every node routes by the whole range table) or "
            + "fat-btree (each data node holds only the index pages above its own ranges).");
    /** Fat-Btree fanout. */
    public static final ConfigKey<Integer> DIRECTORY_FANOUT = ConfigKey.of("directory.fanout", Integer.class, 64,
            "Entries per Fat-Btree index page (cluster.directory: fat-btree), 3 to 4096; the same on every node "
                    + "(a joining node takes the cluster's).");
    /** Initial split points. */
    @SuppressWarnings("rawtypes")
    public static final ConfigKey<List> SPLIT_POINTS = ConfigKey.of("cluster.split-points", List.class,
            List.of(), "Keys (text or 0x-hex) where ranges start; empty splits evenly by first key byte.");
    /** Value size limit. */
    public static final ConfigKey<Integer> MAX_VALUE_BYTES = ConfigKey.of("limits.max-value-bytes",
            Integer.class, Limits.DEFAULT_MAX_VALUE_BYTES, "Largest value accepted, in bytes (keys: 1..1024).");
    /** Response size budget. */
    public static final ConfigKey<Integer> MAX_RESPONSE_BYTES = ConfigKey.of("limits.max-response-bytes",
            Integer.class, 16 * 1024 * 1024, "A traverse page stops at about this many bytes and resumes.");
    /** Queue capacity. */
    public static final ConfigKey<Integer> QUEUE_CAPACITY = ConfigKey.of("queue.capacity", Integer.class, 10_000,
            "Requests waiting for a worker; beyond this the node answers OVERLOADED at once.");
    /** Worker threads. */
    public static final ConfigKey<Integer> QUEUE_WORKERS = ConfigKey.of("queue.workers", Integer.class, 2,
            "Worker threads serving the request queue.");
    /** Network threads. */
    public static final ConfigKey<Integer> IO_THREADS = ConfigKey.of("net.io-threads", Integer.class, 1,
            "Netty event-loop threads for client and peer connections.");
    /** Hop limit. */
    public static final ConfigKey<Integer> HOP_LIMIT = ConfigKey.of("forward.hop-limit", Integer.class, 8,
            "Node-to-node forwards one request may take before it fails with HOP_LIMIT_EXCEEDED.");
    /** Forward timeout. */
    public static final ConfigKey<Integer> FORWARD_TIMEOUT_MS = ConfigKey.of("forward.timeout-ms", Integer.class,
            5000, "How long a node waits for a peer's answer to a forwarded request.");
    /** Connect timeout. */
    public static final ConfigKey<Integer> CONNECT_TIMEOUT_MS = ConfigKey.of("forward.connect-timeout-ms",
            Integer.class, 2000, "How long a node waits to connect to a peer.");
    /** Store engine. */
    public static final ConfigKey<String> STORE_ENGINE = ConfigKey.of("store.engine", String.class, "rocksdb",
            "Local store: rocksdb, or memory (tests; nothing survives a restart).");
    /** Sync writes. */
    public static final ConfigKey<Boolean> SYNC_WRITES = ConfigKey.of("store.sync-writes", Boolean.class, false,
            "Whether each write waits for fsync of RocksDB's own WAL (turns that WAL on).");
    /** RocksDB's own WAL. */
    public static final ConfigKey<Boolean> ROCKSDB_WAL = ConfigKey.of("store.rocksdb-wal", Boolean.class, false,
            "RocksDB's own WAL on a data node with log nodes (whose log replays what was not flushed) and on its "
                    + "backup copies; always on without log nodes.");
    /** TLS on or off. */
    public static final ConfigKey<Boolean> TLS_ENABLED = ConfigKey.of("tls.enabled", Boolean.class, false,
            "TLS on every client and node connection of this node; all nodes of a cluster must agree.");
    /** The node's key and certificate. */
    public static final ConfigKey<String> TLS_KEY_STORE = ConfigKey.of("tls.key-store", String.class, "",
            "PKCS#12 file with this node's private key and certificate chain (required with tls.enabled).");
    /** Its password. */
    public static final ConfigKey<String> TLS_KEY_STORE_PASSWORD = ConfigKey.secret("tls.key-store-password",
            "Password of tls.key-store (and of the key in it).");
    /** Whom the node trusts. */
    public static final ConfigKey<String> TLS_TRUST_STORE = ConfigKey.of("tls.trust-store", String.class, "",
            "PKCS#12 file with the certificates trusted when connecting to peers; empty: the JDK's default trust.");
    /** Its password. */
    public static final ConfigKey<String> TLS_TRUST_STORE_PASSWORD = ConfigKey.secret("tls.trust-store-password",
            "Password of tls.trust-store.");
    /** Host name checks. */
    public static final ConfigKey<Boolean> TLS_VERIFY_HOSTNAME = ConfigKey.of("tls.verify-hostname", Boolean.class,
            true, "Whether a peer's certificate must name its host as given in cluster.nodes.");
    /** Metadata voters. */
    @SuppressWarnings("rawtypes")
    public static final ConfigKey<List> METADATA_VOTERS = ConfigKey.of("metadata.voters", List.class, List.of(),
            "Nodes that vote on the cluster metadata (Raft); empty: the first three data nodes, or all if fewer.");
    /** Metadata port offset. */
    public static final ConfigKey<Integer> METADATA_PORT_OFFSET = ConfigKey.of("metadata.port-offset",
            Integer.class, 1000, "Every node's metadata replica listens on its listen port plus this, and the others "
            + "reach it on its address in `cluster.nodes` plus this (cluster-wide).");
    /** Election timeout. */
    public static final ConfigKey<Integer> METADATA_ELECTION_TIMEOUT_MS = ConfigKey.of(
            "metadata.election-timeout-ms", Integer.class, 1000,
            "Raft election timeout of the metadata voters: the lower bound, the upper is twice it.");
    /** Snapshot interval. */
    public static final ConfigKey<Integer> METADATA_SNAPSHOT_EVERY = ConfigKey.of("metadata.snapshot-every",
            Integer.class, 1000, "A metadata snapshot every this many log entries; older log and snapshots go.");
    /** Raft log segment size of the metadata. */
    public static final ConfigKey<Integer> METADATA_LOG_SEGMENT_KB = ConfigKey.of("metadata.log-segment-kb",
            Integer.class, 1024, "A metadata Raft log segment is closed at this size (KiB); only closed segments "
            + "behind a snapshot are removed, and a replica behind them gets the leader's snapshot.");
    /** Metadata request timeout. */
    public static final ConfigKey<Integer> METADATA_TIMEOUT_MS = ConfigKey.of("metadata.request-timeout-ms",
            Integer.class, 10_000, "How long a metadata change may take to commit before it fails (no majority).");
    /** Split by streams. */
    public static final ConfigKey<Long> RANGE_SPLIT_KEYS = ConfigKey.of("range.split-keys", Long.class,
            RuleConfig.DEFAULT_SPLIT_KEYS,
            "split.drl splits a range holding more streams than this, at its middle stream.");
    /** Split by bytes. */
    public static final ConfigKey<Long> RANGE_SPLIT_BYTES = ConfigKey.of("range.split-bytes", Long.class,
            RuleConfig.DEFAULT_SPLIT_BYTES,
            "split.drl splits a range holding more bytes than this (256 MiB; RocksDB's estimate for large ranges).");
    /** Range check period. */
    public static final ConfigKey<Integer> RANGE_CHECK_MS = ConfigKey.of("range.check-ms", Integer.class, 60_000,
            "Data node: how often it measures the ranges it owns and reports them to the rules; 0: never.");
    /** Drain timeout. */
    public static final ConfigKey<Integer> DRAIN_TIMEOUT_MS = ConfigKey.of("shutdown.drain-timeout-ms",
            Integer.class, 10_000, "On shutdown, how long queued and in-flight requests may take to finish.");

    /** Log multiplicity. */
    public static final ConfigKey<Integer> WAL_MULTIPLICITY = ConfigKey.of("wal.multiplicity", Integer.class, 1,
            "Log nodes (1 or 2) that must hold a change before it is applied; used when there are log nodes.");
    /** Ledger append deadline. */
    public static final ConfigKey<Integer> WAL_ANSWER_TIMEOUT_MS = ConfigKey.of("wal.answer-timeout-ms",
            Integer.class, 2000, "How long a log node may take to answer a ledger append before it is replaced.");
    /** Recovery wait. */
    public static final ConfigKey<Integer> WAL_RECOVERY_TIMEOUT_MS = ConfigKey.of("wal.recovery-timeout-ms",
            Integer.class, 60_000, "At start, how long a data node waits for its ranges' ledgers to be "
                    + "recovered and replayed (at most metadata.request-timeout-ms).");
    /** Log segment size. */
    public static final ConfigKey<Integer> WAL_SEGMENT_BYTES = ConfigKey.of("wal.segment-bytes", Integer.class,
            64 * 1024 * 1024, "Log node: size at which a segment file of the journal of ledgers is closed and "
                    + "a new one started.");
    /** Log segment preallocation. */
    public static final ConfigKey<Integer> WAL_PREALLOCATE_BYTES = ConfigKey.of("wal.preallocate-bytes",
            Integer.class, 1024 * 1024, "Log node: zeros written ahead of the journal's entries this many "
                    + "bytes at a time, so an append's fsync writes no file system metadata; 0 turns it off.");

    /** Catch-up threshold. */
    public static final ConfigKey<Integer> CATCH_UP_THRESHOLD = ConfigKey.of("wal.catch-up-threshold",
            Integer.class, 1000, "Log node: entries a backup lacks beyond which catch-up.drl catches it up.");
    /** Catch-up idle time. */
    public static final ConfigKey<Integer> CATCH_UP_IDLE_MS = ConfigKey.of("wal.catch-up-idle-ms", Integer.class,
            200, "Log node: after this long without appends, catch-up.drl catches up any backup lag.");

    /** User rules directory. */
    public static final ConfigKey<String> RULES_DIR = ConfigKey.of("rules.dir", String.class, "",
            "Directory of user .drl files, loaded after the shipped ones (same name replaces); empty: none.");
    /** Whether the shipped rule files load. */
    public static final ConfigKey<Boolean> RULES_SHIPPED = ConfigKey.of("rules.shipped", Boolean.class, true,
            "Load the shipped rule files (routing, catch-up, load, suspect); false: only rules.dir decides.");
    /** Double-log prefixes. */
    @SuppressWarnings("rawtypes")
    public static final ConfigKey<List> RULES_DOUBLE_LOG = ConfigKey.of("rules.double-log-prefixes", List.class,
            List.of(), "Key prefixes the double-log rule logs to 2 log nodes; set: every ledger of each data node "
                    + "goes to 2.");
    /** Write-protected prefixes. */
    @SuppressWarnings("rawtypes")
    public static final ConfigKey<List> RULES_WRITE_PROTECTED = ConfigKey.of("rules.write-protected-prefixes",
            List.class, List.of(), "Key prefixes the write-protect rule refuses to delete or replace.");
    /** Skew ratio. */
    public static final ConfigKey<Double> RULES_SKEW_RATIO = ConfigKey.of("rules.skew-ratio", Double.class, 2.0,
            "load.drl alerts, and balance.drl moves a range away, when a node serves more than this times the "
                    + "cluster average.");
    /** Skew floor. */
    public static final ConfigKey<Double> RULES_SKEW_MIN_RATE = ConfigKey.of(
            "rules.skew-min-requests-per-second", Double.class, 100.0,
            "load.drl never alerts, nor balance.drl moves a range away, for a node serving fewer requests per "
                    + "second.");
    /** Load report period. */
    public static final ConfigKey<Integer> RULES_LOAD_REPORT_MS = ConfigKey.of("rules.load-report-ms",
            Integer.class, 1000, "Data node: how often every data node's load is gathered for the load rules.");
    /** Alert repeat interval. */
    public static final ConfigKey<Integer> RULES_ALERT_INTERVAL_MS = ConfigKey.of("rules.alert-interval-ms",
            Integer.class, 10_000, "The same alert from the same rule is logged at most once per this interval.");
    /** Prometheus endpoint port. */
    public static final ConfigKey<Integer> METRICS_HTTP_PORT = ConfigKey.of("metrics.http-port", Integer.class, 0,
            "Port of the HTTP endpoint /metrics in Prometheus's text format; 0 serves none.");

    /** Stray span sweep. */
    public static final ConfigKey<Integer> STORE_SWEEP_MS = ConfigKey.of("store.sweep-ms", Integer.class, 60_000,
            "Data node: how often it drops what its store and backup copy hold of ranges the metadata places "
                    + "elsewhere (left by a crash between a change and its clean-up); 0: never.");
    /** Default migration throttle. */
    public static final ConfigKey<Integer> MIGRATION_RATE_BYTES = ConfigKey.of("migration.rate-bytes",
            Integer.class, 64 * 1024 * 1024, "Data node: bytes/s a migration copies when started without a rate; "
                    + "0 copies unthrottled. Changeable per migration at run time.");
    /** Migration chunk size. */
    public static final ConfigKey<Integer> MIGRATION_CHUNK_BYTES = ConfigKey.of("migration.chunk-bytes",
            Integer.class, 1024 * 1024, "Data node: bytes of streams per chunk a migration's target asks of its "
                    + "source (a larger stream goes alone).");
    /** How a target writes what it copies. */
    public static final ConfigKey<Boolean> MIGRATION_BULK_LOAD = ConfigKey.of("migration.bulk-load", Boolean.class,
            true, "Data node: a migration's target writes the streams it copies into SST files it ingests "
                    + "(ingestExternalFile) rather than through the memtable.");
    /** Concurrent migrations per target. */
    public static final ConfigKey<Integer> MIGRATION_MAX_CONCURRENT = ConfigKey.of("migration.max-concurrent",
            Integer.class, 2, "Data node: migrations it copies at once as their target; more wait their turn.");
    /** When the target cuts over. */
    public static final ConfigKey<Integer> MIGRATION_CUTOVER_LAG = ConfigKey.of("migration.cutover-lag-entries",
            Integer.class, 2000, "Data node: the target cuts over once a catch-up round applied at most this many "
                    + "ledger entries (the rest is replayed while writes of the range wait).");

    /** Balance period. */
    public static final ConfigKey<Integer> BALANCE_CHECK_MS = ConfigKey.of("balance.check-ms", Integer.class, 30_000,
            "How often the balancing data node (the lowest id that is up) evaluates balance.drl; 0: never.");
    /** Balance ratio. */
    public static final ConfigKey<Double> BALANCE_RATIO = ConfigKey.of("balance.ratio", Double.class,
            RuleConfig.DEFAULT_BALANCE_RATIO,
            "balance.drl moves a range off a data node holding more than this times the average bytes.");
    /** Balance floor. */
    public static final ConfigKey<Long> BALANCE_MIN_BYTES = ConfigKey.of("balance.min-bytes", Long.class,
            RuleConfig.DEFAULT_BALANCE_MIN_BYTES,
            "balance.drl leaves data nodes whose bytes differ by less than this (64 MiB) as they are.");
    /** Disk fullness above which a node takes no range. */
    public static final ConfigKey<Double> BALANCE_MAX_DISK_USED = ConfigKey.of("balance.max-disk-used-percent",
            Double.class, RuleConfig.DEFAULT_BALANCE_MAX_DISK_USED_PERCENT,
            "balance.drl moves no range and no backup to a data node whose disk is fuller than this percentage.");
    /** Disk fullness above which a node gives ranges away. */
    public static final ConfigKey<Double> BALANCE_SHED_DISK_USED = ConfigKey.of("balance.shed-disk-used-percent",
            Double.class, RuleConfig.DEFAULT_BALANCE_SHED_DISK_USED_PERCENT,
            "balance.drl moves a range off a data node whose disk is fuller than this percentage, one at a time, to "
                    + "the node with the most room; at least balance.max-disk-used-percent (100: never; not set: 95 or "
                    + "balance.max-disk-used-percent if higher).");

    /** Heartbeat period. */
    public static final ConfigKey<Integer> FAILURE_HEARTBEAT_MS = ConfigKey.of("failure.heartbeat-ms", Integer.class,
            250, "How often every node sends a heartbeat, with the nodes it suspects, to every other node.");
    /** Store failure until silence. */
    public static final ConfigKey<Integer> STORE_FAILOVER_AFTER_MS = ConfigKey.of("store.failover-after-ms",
            Integer.class, 30_000, "A data node whose store's writes began failing this long ago (a full disk) "
            + "probes its disk, and while probes fail stops its heartbeats, so that the others declare it failed and "
            + "fail its ranges over to their backups; once a probe works it resumes them and rejoins. 0: never.");
    /** Suspicion timeout. */
    public static final ConfigKey<Integer> FAILURE_SUSPECT_MS = ConfigKey.of("failure.suspect-ms", Integer.class,
            1000, "A node not heard from for this long is suspected by its observer; one suspected by a majority of "
                    + "the other members that are up is failed, and failover.drl decides what happens. 0: no "
                    + "detection (nothing fails over).");
    /** Owner lease. */
    public static final ConfigKey<Integer> LEASE_MS = ConfigKey.of("lease.ms", Integer.class, 2000,
            "Data node: how long a confirmation from its log nodes lets a range's owner serve (renewed every quarter "
                    + "of it, by every write); a promoted owner serves once its former owner's lease ran out, reckoned "
                    + "with its own value: the same on every data node.");
    /** Lease margin. */
    public static final ConfigKey<Integer> LEASE_MARGIN_MS = ConfigKey.of("lease.margin-ms", Integer.class, 200,
            "Data node: what a promoted owner waits beyond its former owner's lease, for clock drift and answers "
                    + "in flight (see docs/failures.md for the clock assumptions).");

    /** Fault-injection hooks. */
    public static final ConfigKey<String> FAULT_HOOKS_DIR = ConfigKey.of("fault.hooks-dir", String.class, "",
            "Fault tests only: a directory (relative to the node's data directory, node.data-dir/node.id) whose "
                    + "files turn faults on: disk-full fails every write of a log node's journal or a data node's "
                    + "store, slow-fsync (milliseconds) delays every fsync of a log node's journal; empty: no hooks.");

    /** All keys, in documentation order. */
    public static final List<ConfigKey<?>> ALL = List.of(NODE_ID, LISTEN, DATA_DIR, CLUSTER_NODES, CLUSTER_JOIN,
            CLUSTER_SECRET, CLUSTER_SECRET_FILE, DIRECTORY, DIRECTORY_FANOUT, SPLIT_POINTS, MAX_VALUE_BYTES,
            MAX_RESPONSE_BYTES, QUEUE_CAPACITY, QUEUE_WORKERS, IO_THREADS, HOP_LIMIT, FORWARD_TIMEOUT_MS,
            CONNECT_TIMEOUT_MS, STORE_ENGINE, SYNC_WRITES, ROCKSDB_WAL, TLS_ENABLED, TLS_KEY_STORE,
            TLS_KEY_STORE_PASSWORD, TLS_TRUST_STORE, TLS_TRUST_STORE_PASSWORD, TLS_VERIFY_HOSTNAME, METADATA_VOTERS,
            METADATA_PORT_OFFSET, METADATA_ELECTION_TIMEOUT_MS, METADATA_SNAPSHOT_EVERY, METADATA_LOG_SEGMENT_KB,
            METADATA_TIMEOUT_MS,
            RANGE_SPLIT_KEYS, RANGE_SPLIT_BYTES, RANGE_CHECK_MS, DRAIN_TIMEOUT_MS, WAL_MULTIPLICITY,
            WAL_ANSWER_TIMEOUT_MS, WAL_RECOVERY_TIMEOUT_MS, WAL_SEGMENT_BYTES, WAL_PREALLOCATE_BYTES,
            CATCH_UP_THRESHOLD, CATCH_UP_IDLE_MS, RULES_DIR, RULES_SHIPPED, RULES_DOUBLE_LOG, RULES_WRITE_PROTECTED,
            RULES_SKEW_RATIO, RULES_SKEW_MIN_RATE, RULES_LOAD_REPORT_MS, RULES_ALERT_INTERVAL_MS, METRICS_HTTP_PORT,
            MIGRATION_RATE_BYTES, MIGRATION_CHUNK_BYTES, MIGRATION_BULK_LOAD, MIGRATION_MAX_CONCURRENT,
            MIGRATION_CUTOVER_LAG, BALANCE_CHECK_MS, BALANCE_RATIO, BALANCE_MIN_BYTES, BALANCE_MAX_DISK_USED,
            BALANCE_SHED_DISK_USED, FAILURE_HEARTBEAT_MS,
            FAILURE_SUSPECT_MS, STORE_FAILOVER_AFTER_MS, STORE_SWEEP_MS, LEASE_MS, LEASE_MARGIN_MS, FAULT_HOOKS_DIR);

    /** The whole-number keys for which 0 is a meaningful value (off, or none); every other must be at least 1. */
    public static final List<ConfigKey<?>> MAY_BE_ZERO = List.of(WAL_PREALLOCATE_BYTES, RANGE_CHECK_MS,
            METRICS_HTTP_PORT, MIGRATION_RATE_BYTES, BALANCE_CHECK_MS, FAILURE_SUSPECT_MS, LEASE_MARGIN_MS,
            STORE_FAILOVER_AFTER_MS, STORE_SWEEP_MS);

    private NodeConfigKeys() {
    }
}
