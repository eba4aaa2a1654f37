package org.autodisk.node.wal;

/**
 * Counters of a log store since it was opened.
 *
 * @param appends calls to {@link LogStore#append}
 * @param records records made durable
 * @param bytes   bytes made durable (frames: length prefix and encoded record)
 * @param fsyncs  data-file fsyncs (directory fsyncs after creating a segment are not counted)
 * @param batches group commits that made at least one append durable
 */
public record LogStats(long appends, long records, long bytes, long fsyncs, long batches) {

    /**
     * Returns how many records one fsync made durable on average: the group-commit factor.
     *
     * @return records per fsync, 0 when there was no fsync
     */
    public double recordsPerFsync() {
        return fsyncs == 0 ? 0.0 : (double) records / fsyncs;
    }
}
