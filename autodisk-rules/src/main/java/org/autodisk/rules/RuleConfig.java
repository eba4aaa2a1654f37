package org.autodisk.rules;

import java.util.List;

/**
 * Settings the shipped rules read through the global {@code config}.
 *
 * @param logMultiplicity the cluster's log multiplicity ({@code wal.multiplicity}) that routing.drl gives writes
 * @param doubleLogPrefixes keys starting with one of these are logged to two log nodes (examples/double-log.drl)
 * @param writeProtectedPrefixes keys starting with one of these cannot be deleted or replaced
 *     (examples/write-protect.drl)
 * @param catchUpThreshold unapplied records of a backup beyond which a catch-up starts (catch-up.drl)
 * @param catchUpIdleMillis after this long without appends any backlog is caught up (catch-up.drl)
 * @param skewRatio a node serving more than this times the cluster average is reported (load.drl) and gives a range
 *                  away (balance.drl)
 * @param skewMinRequestsPerSecond below this rate a node is never reported as skewed nor gives a range away
 * @param splitKeys a range holding more streams than this splits (split.drl)
 * @param splitBytes a range holding more bytes of keys and values than this splits (split.drl)
 * @param balanceRatio a data node holding more than this times the average bytes gives a range away (balance.drl)
 * @param balanceMinBytes nodes whose bytes differ by less than this are balanced enough (balance.drl)
 * @param balanceMaxDiskUsedPercent a data node whose disk is fuller than this percentage takes no range and no backup
 *     (balance.drl)
 * @param balanceShedDiskUsedPercent a data node whose disk is fuller than this percentage gives a range to the node
 *     with the most room (balance.drl); at least {@code balanceMaxDiskUsedPercent}, so that a range moved off never
 *     comes back
 */
public record RuleConfig(int logMultiplicity, List<String> doubleLogPrefixes, List<String> writeProtectedPrefixes,
        long catchUpThreshold, long catchUpIdleMillis, double skewRatio, double skewMinRequestsPerSecond,
        long splitKeys, long splitBytes, double balanceRatio, long balanceMinBytes, double balanceMaxDiskUsedPercent,
        double balanceShedDiskUsedPercent) {

    /** Streams beyond which a range splits, by default. */
    public static final long DEFAULT_SPLIT_KEYS = 1_000_000;

    /** Bytes beyond which a range splits, by default (256 MiB). */
    public static final long DEFAULT_SPLIT_BYTES = 256L << 20;
    /** Times the average bytes beyond which a data node gives a range away, by default. */
    public static final double DEFAULT_BALANCE_RATIO = 1.25;
    /** Differences in bytes below which data nodes are balanced enough, by default (64 MiB). */
    public static final long DEFAULT_BALANCE_MIN_BYTES = 64L << 20;
    /** How full a data node's disk may be and still take a range, by default (CockroachDB's rebalance threshold). */
    public static final double DEFAULT_BALANCE_MAX_DISK_USED_PERCENT = 92.5;
    /** Default {@link #balanceShedDiskUsedPercent}: CockroachDB's shedding threshold. */
    public static final double DEFAULT_BALANCE_SHED_DISK_USED_PERCENT = 95.0;

    /** Copies the lists. */
    public RuleConfig {
        doubleLogPrefixes = List.copyOf(doubleLogPrefixes);
        writeProtectedPrefixes = List.copyOf(writeProtectedPrefixes);
    }

    /**
     * Settings with the default split and balance thresholds.
     *
     * @param logMultiplicity          the cluster's log multiplicity
     * @param doubleLogPrefixes        keys logged twice
     * @param writeProtectedPrefixes   keys that cannot be deleted or replaced
     * @param catchUpThreshold         unapplied records that start a catch-up
     * @param catchUpIdleMillis        idle time after which any backlog is caught up
     * @param skewRatio                load skew ratio
     * @param skewMinRequestsPerSecond rate below which no node is skewed
     */
    public RuleConfig(int logMultiplicity, List<String> doubleLogPrefixes, List<String> writeProtectedPrefixes,
            long catchUpThreshold, long catchUpIdleMillis, double skewRatio, double skewMinRequestsPerSecond) {
        this(logMultiplicity, doubleLogPrefixes, writeProtectedPrefixes, catchUpThreshold, catchUpIdleMillis,
                skewRatio, skewMinRequestsPerSecond, DEFAULT_SPLIT_KEYS, DEFAULT_SPLIT_BYTES, DEFAULT_BALANCE_RATIO,
                DEFAULT_BALANCE_MIN_BYTES, DEFAULT_BALANCE_MAX_DISK_USED_PERCENT,
                DEFAULT_BALANCE_SHED_DISK_USED_PERCENT);
    }

    /**
     * The defaults: log multiplicity 1, no prefixes, catch up beyond 1000 records or after 200 ms idle, skew at
     * twice the average and 100 req/s, split beyond a million streams or 256 MiB, balance beyond 1.25 times the
     * average bytes and 64 MiB of difference, no range to a disk more than 92.5 % full, ranges moved off a disk more
     * than 95 % full.
     *
     * @return the default settings
     */
    public static RuleConfig defaults() {
        return new RuleConfig(1, List.of(), List.of(), 1000, 200, 2.0, 100.0);
    }

    /**
     * Returns these settings with other prefixes.
     *
     * @param doubleLog keys logged twice
     * @param writeProtected keys that cannot be deleted or replaced
     * @return the new settings
     */
    public RuleConfig withPrefixes(List<String> doubleLog, List<String> writeProtected) {
        return new RuleConfig(logMultiplicity, doubleLog, writeProtected, catchUpThreshold, catchUpIdleMillis,
                skewRatio, skewMinRequestsPerSecond, splitKeys, splitBytes, balanceRatio, balanceMinBytes,
                balanceMaxDiskUsedPercent, balanceShedDiskUsedPercent);
    }

    /**
     * Returns whether a key is to be logged twice.
     *
     * @param key the key
     * @return true when it starts with a double-log prefix
     */
    public boolean isDoubleLog(String key) {
        return prefixOf(doubleLogPrefixes, key) != null;
    }

    /**
     * Returns whether a key is write-protected.
     *
     * @param key the key
     * @return true when it starts with a write-protected prefix
     */
    public boolean isWriteProtected(String key) {
        return prefixOf(writeProtectedPrefixes, key) != null;
    }

    /**
     * Returns the write-protected prefix a key starts with.
     *
     * @param key the key
     * @return the prefix, or an empty string
     */
    public String protectedPrefix(String key) {
        String prefix = prefixOf(writeProtectedPrefixes, key);
        return prefix == null ? "" : prefix;
    }

    private static String prefixOf(List<String> prefixes, String key) {
        for (String prefix : prefixes) {
            if (key.startsWith(prefix)) {
                return prefix;
            }
        }
        return null;
    }
}
