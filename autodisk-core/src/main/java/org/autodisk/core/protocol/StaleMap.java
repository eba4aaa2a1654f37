package org.autodisk.core.protocol;

import org.autodisk.core.cluster.RangeStatus;

/**
 * A {@link Status#STALE_MAP} answer: the receiver's newer view of where a key is.
 *
 * @param message what happened, naming both versions
 * @param version the metadata version of the receiver's map
 * @param range   the range that holds the key in that map
 */
public record StaleMap(String message, long version, RangeStatus range) {
}
