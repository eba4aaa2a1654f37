package org.autodisk.client;

import org.autodisk.core.Keys;
import org.autodisk.core.Limits;

/** Client-side checks, so that a request the node would reject is never sent. */
final class Validation {

    private Validation() {
    }

    /**
     * Checks a key.
     *
     * @param limits the limits
     * @param key    the key
     * @return {@code null} if valid, else the message the node would give
     */
    static String key(Limits limits, byte[] key) {
        return limits.checkKey(key);
    }

    /**
     * Checks a key and value.
     *
     * @param limits the limits
     * @param key    the key
     * @param value  the value
     * @return {@code null} if valid, else the message the node would give
     */
    static String entry(Limits limits, byte[] key, byte[] value) {
        String problem = limits.checkKey(key);
        return problem != null ? problem : limits.checkValue(value);
    }

    /**
     * Checks a traverse range.
     *
     * @param limits      the limits
     * @param from        first key, may be empty
     * @param toExclusive end key, or {@code null}
     * @param limit       the entry limit
     * @return {@code null} if valid, else what is wrong
     */
    static String range(Limits limits, byte[] from, byte[] toExclusive, int limit) {
        if (limit < 1) {
            return "traverse limit is " + limit + ": it must be 1 or more";
        }
        if (from.length > 0) {
            String problem = limits.checkKey(from);
            if (problem != null) {
                return "from " + problem;
            }
        }
        if (toExclusive == null) {
            return null;
        }
        if (toExclusive.length > 0) {
            String problem = limits.checkKey(toExclusive);
            if (problem != null) {
                return "toExclusive " + problem;
            }
        }
        if (Keys.compare(from, toExclusive) >= 0) {
            return "empty traverse range: from " + Keys.render(from) + " must sort strictly before toExclusive "
                    + Keys.render(toExclusive);
        }
        return null;
    }

    /**
     * Checks a setting's duration.
     *
     * @param d    the duration
     * @param name the setting, for the message
     * @return the duration
     * @throws IllegalArgumentException if it is missing, zero or negative
     */
    static java.time.Duration positive(java.time.Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
        return d;
    }
}
