package org.autodisk.node.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One group commit on the writer thread: {@link #add} assigns every queued append's frames to segments (in
 * memory), {@link #write} writes each touched segment once, {@link #sync} fsyncs each once, then either
 * {@link #publish} makes the data visible and completes the futures, or {@link #rollback} cuts the files back.
 */
final class Batch {

    private static final Logger LOG = LoggerFactory.getLogger(Batch.class);
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 * 1024);

    private final String storeId;
    private final Path storeDir;
    private final long segmentBytes;
    private final long preallocateBytes;
    private final Function<String, StreamWriter> writers;
    private final Map<Segment, Touch> touches = new LinkedHashMap<>();
    private final Set<StreamWriter> touchedStreams = new LinkedHashSet<>();
    private final Set<Path> dirsToSync = new LinkedHashSet<>();
    private final List<PendingAppend> accepted = new ArrayList<>();
    private String step = "preparing";

    Batch(String storeId, Path storeDir, SegmentOptions options, Function<String, StreamWriter> writers) {
        this.storeId = storeId;
        this.storeDir = storeDir;
        this.segmentBytes = options.segmentBytes();
        this.preallocateBytes = options.preallocateBytes();
        this.writers = writers;
    }

    /** Takes an append into the batch, or fails its future at once if it does not continue its stream. */
    void add(PendingAppend p) {
        if (p.lsns().length == 0) {
            accepted.add(p);
            return;
        }
        StreamWriter w = writers.apply(p.stream());
        String order = Appends.orderProblem(p.stream(), p.lsns()[0], w.lastLsn());
        if (order != null) {
            p.future().completeExceptionally(new IllegalArgumentException(storeId + ": " + order));
            return;
        }
        for (int i = 0; i < p.lsns().length; i++) {
            touchFor(w, p.frames().get(i).length, p.lsns()[i]).add(p.frames().get(i), p.lsns()[i]);
            w.accepted(p.lsns()[i]);
        }
        touchedStreams.add(w);
        accepted.add(p);
    }

    private Touch touchFor(StreamWriter w, int frameLength, long lsn) {
        Segment active = w.active();
        Touch t = active == null ? null : touches.get(active);
        long size = t != null ? t.end() : active == null ? 0 : active.size();
        if (active == null || size > 0 && size + frameLength > segmentBytes) {
            Segment created = new Segment(w.log().dir().resolve(Segment.fileName(lsn)), lsn);
            w.roll(created);
            t = new Touch(w, created, true);
            touches.put(created, t);
        } else if (t == null) {
            t = new Touch(w, active, false);
            touches.put(active, t);
        }
        return t;
    }

    boolean hasWrites() {
        return !touches.isEmpty();
    }

    /** Writes every touched segment's new frames at its durable end. */
    void write(SegmentOptions.FaultHook hook) throws IOException {
        for (Touch t : touches.values()) {
            step = "writing " + t.segment().file();
            hook.beforeWrite(t.stream().log().name());
            FileChannel ch = channel(t);
            Segment s = t.segment();
            if (s.allocated < 0) {
                ch.truncate(t.sizeBefore());
                s.allocated = t.sizeBefore();
            }
            preallocate(s, ch, t.end());
            ByteBuffer bytes = t.bytes();
            long pos = t.sizeBefore();
            while (bytes.hasRemaining()) {
                pos += ch.write(bytes, pos);
            }
        }
    }

    /**
     * Extends the file with zeros past {@code end}, a preallocation step at a time, so that the fsyncs of the next
     * batches find its size and blocks unchanged. Zeros, rather than fallocate's unwritten extents, whose
     * conversion on the first write would be metadata again.
     */
    private void preallocate(Segment s, FileChannel ch, long end) throws IOException {
        if (end <= s.allocated) {
            return;
        }
        long target = end;
        if (preallocateBytes > 0) {
            long rounded = (end + preallocateBytes - 1) / preallocateBytes * preallocateBytes;
            target = Math.max(end, Math.min(rounded, segmentBytes));
        }
        for (long pos = end; pos < target; ) {
            pos += ch.write(ZEROS.duplicate().limit((int) Math.min(ZEROS.capacity(), target - pos)), pos);
        }
        s.allocated = target;
    }

    private FileChannel channel(Touch t) throws IOException {
        Segment s = t.segment();
        if (s.channel == null && t.created()) {
            Path streamDir = t.stream().log().dir();
            if (!Files.isDirectory(streamDir)) {
                Files.createDirectories(streamDir);
                dirsToSync.add(storeDir);
            }
            dirsToSync.add(streamDir);
            s.channel = FileChannel.open(s.file(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            s.allocated = 0;
        } else if (s.channel == null) {
            s.channel = FileChannel.open(s.file(), StandardOpenOption.WRITE);
        }
        return s.channel;
    }

    /** Fsyncs every touched segment once, then the directories of new files. */
    void sync(SegmentOptions.FaultHook hook, LogCounters counters) throws IOException {
        for (Touch t : touches.values()) {
            step = "fsync of " + t.segment().file();
            hook.beforeSync(t.segment().file());
            t.segment().channel.force(false);
            counters.countFsync();
        }
        for (Path dir : dirsToSync) {
            step = "fsync of directory " + dir;
            Recovery.syncDir(dir);
        }
    }

    /** Makes the durable data visible to readers, then completes the futures with each stream's last LSN. */
    void publish(Map<String, StreamLog> streams, LogCounters counters) {
        long records = 0;
        long bytes = 0;
        for (Touch t : touches.values()) {
            StreamLog log = t.stream().log();
            t.segment().publish(t.end(), t.lastLsn(), t.index());
            if (t.created()) {
                log.addSegment(t.segment());
            }
            streams.putIfAbsent(log.name(), log);
            if (t.segment() != t.stream().active()) {
                closeQuietly(storeId, t.segment());
            }
            records += t.records();
            bytes += t.length();
        }
        if (records > 0) {
            counters.countBatch(records, bytes);
        }
        for (PendingAppend p : accepted) {
            StreamLog log = streams.get(p.stream());
            p.future().complete(log == null ? 0L : log.lastLsn());
        }
    }

    /** Cuts touched files back to their durable size, deletes new ones, and fails every accepted append. */
    void rollback(Exception cause) {
        for (Touch t : touches.values()) {
            if (t.created()) {
                closeQuietly(storeId, t.segment());
                deleteQuietly(t.segment().file());
            } else {
                truncateQuietly(t);
            }
        }
        touchedStreams.forEach(StreamWriter::reset);
        LogStoreException failure = new LogStoreException(storeId + ": " + accepted.size() + " append(s) not made"
                + " durable in " + storeDir + ": " + step + " failed: " + describe(cause), cause);
        LOG.warn("{}: {}", storeId, failure.getMessage());
        accepted.forEach(p -> p.future().completeExceptionally(failure));
    }

    private static String describe(Exception e) {
        String type = e.getClass().getSimpleName();
        return e.getMessage() == null ? type : type + ": " + e.getMessage();
    }

    private void truncateQuietly(Touch t) {
        Segment s = t.segment();
        s.allocated = -1;
        try {
            if (s.channel != null) {
                s.channel.truncate(t.sizeBefore());
                s.allocated = t.sizeBefore();
            }
        } catch (IOException e) {
            LOG.warn("{}: cannot cut {} back to {} bytes (retried before its next write): {}", storeId,
                    t.segment().file(), t.sizeBefore(), e.toString());
        }
    }

    private void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("{}: cannot delete {} after a failed batch: {}", storeId, file, e.toString());
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(0);
            } catch (IOException again) {
                LOG.warn("{}: cannot empty {} either: {}", storeId, file, again.toString());
            }
        }
    }

    /** Closes a segment's channel, first cutting off its preallocated zeros (recovery would too). */
    static void closeQuietly(String storeId, Segment s) {
        if (s.channel == null) {
            return;
        }
        try {
            if (s.allocated > s.size()) {
                s.channel.truncate(s.size());
            }
            s.channel.close();
        } catch (IOException e) {
            LOG.debug("{}: closing {}: {}", storeId, s.file(), e.toString());
        } finally {
            s.channel = null;
            s.allocated = -1;
        }
    }
}
