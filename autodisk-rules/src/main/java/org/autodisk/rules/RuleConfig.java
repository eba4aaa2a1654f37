package org.autodisk.rules;

import java.util.List;

/**
 * Settings the shipped rules read through the global {@code config}.
 *
 * @param doubleLogPrefixes keys starting with one of these are logged to two log nodes (examples/double-log.drl)
 * @param writeProtectedPrefixes keys starting with one of these cannot be deleted or replaced
 *     (examples/write-protect.drl)
 * @param catchUpThreshold unapplied records of a backup beyond which a catch-up starts (catch-up.drl)
 * @param skewRatio a node serving more than this times the cluster average is reported (load.drl)
 * @param skewMinRequestsPerSecond below this rate a node is never reported as skewed (load.drl)
 */
public record RuleConfig(List<String> doubleLogPrefixes, List<String> writeProtectedPrefixes,
        long catchUpThreshold, double skewRatio, double skewMinRequestsPerSecond) {

    /** Copies the lists. */
    public RuleConfig {
        doubleLogPrefixes = List.copyOf(doubleLogPrefixes);
        writeProtectedPrefixes = List.copyOf(writeProtectedPrefixes);
    }

    /**
     * The defaults: no prefixes, catch up beyond 1000 records, skew at twice the average and 100 req/s.
     *
     * @return the default settings
     */
    public static RuleConfig defaults() {
        return new RuleConfig(List.of(), List.of(), 1000, 2.0, 100.0);
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
