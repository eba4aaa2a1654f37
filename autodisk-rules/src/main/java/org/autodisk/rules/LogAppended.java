package org.autodisk.rules;

/**
 * A node appended records to a log stream.
 *
 * @param stream the stream (range) the log belongs to
 * @param lastLsn the sequence number of the last record appended
 */
public record LogAppended(String stream, long lastLsn) {
}
