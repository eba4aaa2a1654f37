package org.autodisk.node.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.autodisk.node.wire.LogRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link LogStore} in segment files: {@code <dir>/<stream>/<first LSN, 20 digits>.log}, each a sequence
 * of frames ({@link Frames}). Appends are encoded on the caller's thread and made durable by one
 * {@link LogWriter} thread with group commit; reads go to the files directly. {@code <dir>/.lock} keeps a
 * second store off the directory.
 */
final class SegmentLogStore implements LogStore {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentLogStore.class);

    private final String id;
    private final Path dir;
    private final FileChannel lockChannel;
    private final Map<String, StreamLog> streams;
    private final LogCounters counters = new LogCounters();
    private final LogWriter writer;
    private final Object submitLock = new Object();
    private volatile boolean closed;

    private SegmentLogStore(String id, Path dir, FileChannel lockChannel, Map<String, StreamLog> recovered,
            SegmentOptions options) {
        this.id = id;
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.streams = new ConcurrentHashMap<>(recovered);
        this.writer = new LogWriter(id, dir, options, streams, counters);
    }

    static SegmentLogStore open(Path dir, String id, SegmentOptions options) {
        FileChannel lockChannel = lock(dir, id);
        try {
            Map<String, StreamLog> recovered = Recovery.recover(id, dir);
            SegmentLogStore store = new SegmentLogStore(id, dir, lockChannel, recovered, options);
            store.writer.start();
            LOG.info("{}: log store {} open: {} streams, {} segments", id, dir, recovered.size(),
                    recovered.values().stream().mapToInt(s -> s.segments().size()).sum());
            return store;
        } catch (IOException | RuntimeException e) {
            closeQuietly(id, lockChannel);
            throw new LogStoreException(id + ": cannot open log store " + dir + ": " + e, e);
        }
    }

    private static FileChannel lock(Path dir, String id) {
        FileChannel ch;
        try {
            Files.createDirectories(dir);
            ch = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new LogStoreException(id + ": cannot open log directory " + dir + ": " + e, e);
        }
        try {
            if (ch.tryLock() != null) {
                return ch;
            }
        } catch (OverlappingFileLockException e) {
            LOG.debug("{}: {} is locked in this JVM", id, dir);
        } catch (IOException e) {
            closeQuietly(id, ch);
            throw new LogStoreException(id + ": cannot lock log directory " + dir + ": " + e, e);
        }
        closeQuietly(id, ch);
        throw new LogStoreException(id + ": log directory " + dir + " is in use by another log store");
    }

    private static void closeQuietly(String id, FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            LOG.debug("{}: closing the lock file: {}", id, e.toString());
        }
    }

    @Override
    public CompletableFuture<Long> append(String stream, List<LogRecord> records) {
        counters.countAppend();
        String problem = Appends.problem(stream, records);
        if (problem != null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(id + ": " + problem));
        }
        long[] lsns = new long[records.size()];
        List<byte[]> frames = new ArrayList<>(records.size());
        for (int i = 0; i < lsns.length; i++) {
            lsns[i] = records.get(i).lsn();
            frames.add(Frames.encode(records.get(i)));
        }
        PendingAppend pending = new PendingAppend(stream, lsns, frames, new CompletableFuture<>());
        synchronized (submitLock) {
            if (closed) {
                return CompletableFuture.failedFuture(closedException());
            }
            writer.submit(pending);
        }
        return pending.future();
    }

    @Override
    public List<LogRecord> read(String stream, long fromLsnInclusive, int maxRecords, long maxBytes) {
        StreamLog log = open(stream);
        return log == null ? List.of() : log.read(fromLsnInclusive, maxRecords, maxBytes);
    }

    @Override
    public long lastLsn(String stream) {
        StreamLog log = open(stream);
        return log == null ? 0 : log.lastLsn();
    }

    @Override
    public long firstLsn(String stream) {
        StreamLog log = open(stream);
        return log == null ? 0 : log.firstLsn();
    }

    @Override
    public Set<String> streams() {
        ensureOpen();
        return Set.copyOf(streams.keySet());
    }

    @Override
    public void truncateBelow(String stream, long lsn) {
        StreamLog log = open(stream);
        if (log != null) {
            log.truncateBelow(lsn);
        }
    }

    @Override
    public LogStats stats() {
        return counters.snapshot();
    }

    @Override
    public void close() {
        synchronized (submitLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        writer.stopAndJoin();
        closeQuietly(id, lockChannel);
        LOG.info("{}: log store {} closed", id, dir);
    }

    private StreamLog open(String stream) {
        ensureOpen();
        return streams.get(stream);
    }

    private void ensureOpen() {
        if (closed) {
            throw closedException();
        }
    }

    private LogStoreException closedException() {
        return new LogStoreException(id + ": log store " + dir + " is closed");
    }
}
