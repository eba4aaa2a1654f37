package org.autodisk.rules;

/**
 * A log node reports how many records of a stream a backup has not applied yet.
 *
 * @param stream the stream (range)
 * @param backup the backup node behind
 * @param unappliedRecords the records logged but not yet applied by the backup
 * @param idleMillis how long the log node has received no appends
 */
public record BacklogReport(String stream, String backup, long unappliedRecords, long idleMillis) {
}
