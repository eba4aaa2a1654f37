package org.autodisk.node.wal;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.autodisk.node.wire.LogRecord;

/**
 * The log node's durable storage: one append-only log per stream (a stream is one data node's log, named by
 * the data node's id), records in strictly increasing LSN order. Implementations are thread-safe.
 */
public interface LogStore extends AutoCloseable {

    /**
     * Appends records to a stream. The future completes only once the records are written and fsynced, with
     * the stream's last durable LSN; it fails with {@link LogStoreException} if they could not be made
     * durable (nothing of the failed append is ever served), and with {@link IllegalArgumentException} if
     * the stream name is invalid or the LSNs are not strictly increasing and greater than every LSN already
     * accepted for the stream (nothing is written then). Futures complete on the store's writer thread:
     * dependent stages must not block.
     *
     * @param stream  the stream (data node id: letters, digits, {@code . _ -}, not starting with a dot)
     * @param records the records, LSNs (&ge; 1) strictly increasing; an empty list just reports the last LSN
     * @return the stream's last durable LSN once the records are durable
     */
    CompletableFuture<Long> append(String stream, List<LogRecord> records);

    /**
     * Reads durable records in LSN order starting at an LSN. Records below {@link #firstLsn} are gone: a read
     * from below it starts at {@code firstLsn}.
     *
     * @param stream           the stream
     * @param fromLsnInclusive the first LSN wanted
     * @param maxRecords       at most this many records
     * @param maxBytes         stop before the encoded records would exceed this many bytes; at least one
     *                         record is returned if one exists and {@code maxRecords >= 1}
     * @return the records, empty if there are none at or after the LSN
     */
    List<LogRecord> read(String stream, long fromLsnInclusive, int maxRecords, long maxBytes);

    /**
     * Returns the last durable LSN of a stream.
     *
     * @param stream the stream
     * @return the LSN, 0 if the stream has no records
     */
    long lastLsn(String stream);

    /**
     * Returns the first LSN still held for a stream.
     *
     * @param stream the stream
     * @return the LSN, 0 if the stream has no records
     */
    long firstLsn(String stream);

    /**
     * Returns the streams that have durable records.
     *
     * @return the stream names
     */
    Set<String> streams();

    /**
     * Lets the store drop records with LSN below {@code lsn}. It may keep some (the segment store drops
     * whole segments only) and always keeps the last record, so {@link #lastLsn} never goes back.
     *
     * @param stream the stream
     * @param lsn    records below this LSN are no longer needed
     */
    void truncateBelow(String stream, long lsn);

    /**
     * Returns the counters since the store was opened.
     *
     * @return the counters
     */
    LogStats stats();

    /** Makes every queued append durable (or fails it), then releases the store; later calls fail. */
    @Override
    void close();

    /**
     * Opens (recovering if needed) the segment-file store in a directory: one subdirectory per stream, one
     * file per segment. A torn or corrupt tail found on open is cut off and logged.
     *
     * @param dir     the store directory (created if missing); one store per directory
     * @param id      the store's id for logs, errors and the writer thread's name (the log node id)
     * @param options segment size and fault hook
     * @return the open store
     * @throws LogStoreException if the directory cannot be opened or recovered
     */
    static LogStore segments(Path dir, String id, SegmentOptions options) {
        return SegmentLogStore.open(dir, id, options);
    }

    /**
     * Returns a new store in memory: same semantics, no durability (for tests of node logic).
     *
     * @return the store
     */
    static LogStore inMemory() {
        return new InMemoryLogStore();
    }
}
