package org.autodisk.rules;

/**
 * A log node acknowledged the records of a stream up to a sequence number.
 *
 * @param stream the stream (range) the log belongs to
 * @param lsn the last sequence number acknowledged
 * @param logNode the log node that acknowledged
 */
public record LogAcknowledged(String stream, long lsn, String logNode) {
}
