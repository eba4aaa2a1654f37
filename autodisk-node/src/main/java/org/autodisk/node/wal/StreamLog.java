package org.autodisk.node.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.node.wire.LogRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable, published state of one stream: its segments in LSN order. Readers work on a snapshot of the
 * segment list without locking; the writer's publish and {@link #truncateBelow} replace the list.
 */
final class StreamLog {

    private static final Logger LOG = LoggerFactory.getLogger(StreamLog.class);

    private final String storeId;
    private final String name;
    private final Path dir;
    private volatile List<Segment> segments;

    StreamLog(String storeId, String name, Path dir, List<Segment> segments) {
        this.storeId = storeId;
        this.name = name;
        this.dir = dir;
        this.segments = List.copyOf(segments);
    }

    String name() {
        return name;
    }

    Path dir() {
        return dir;
    }

    List<Segment> segments() {
        return segments;
    }

    Segment lastSegment() {
        List<Segment> segs = segments;
        return segs.isEmpty() ? null : segs.get(segs.size() - 1);
    }

    long lastLsn() {
        Segment last = lastSegment();
        return last == null ? 0 : last.lastLsn();
    }

    long firstLsn() {
        List<Segment> segs = segments;
        return segs.isEmpty() ? 0 : segs.get(0).firstLsn();
    }

    /** Writer thread: adds a segment whose first data has just been made durable. */
    synchronized void addSegment(Segment segment) {
        List<Segment> next = new ArrayList<>(segments);
        next.add(segment);
        segments = List.copyOf(next);
    }

    /** Drops whole segments whose records are all below {@code lsn}; never the last segment. */
    void truncateBelow(long lsn) {
        List<Segment> dropped = new ArrayList<>();
        synchronized (this) {
            List<Segment> segs = segments;
            int keepFrom = 0;
            while (keepFrom + 1 < segs.size() && segs.get(keepFrom + 1).firstLsn() <= lsn) {
                dropped.add(segs.get(keepFrom++));
            }
            segments = List.copyOf(segs.subList(keepFrom, segs.size()));
        }
        for (Segment s : dropped) {
            try {
                Files.deleteIfExists(s.file());
            } catch (IOException e) {
                LOG.warn("{}: stream {}: could not delete truncated segment {} (it stays on disk): {}",
                        storeId, name, s.file(), e.toString());
            }
        }
        if (!dropped.isEmpty()) {
            LOG.debug("{}: stream {}: dropped {} segments below LSN {}", storeId, name, dropped.size(), lsn);
        }
    }

    List<LogRecord> read(long fromLsn, int maxRecords, long maxBytes) {
        ReadBudget budget = new ReadBudget(maxRecords, maxBytes);
        List<Segment> segs = segments;
        int i = 0;
        while (i + 1 < segs.size() && segs.get(i + 1).firstLsn() <= fromLsn) {
            i++;
        }
        for (; i < segs.size() && !budget.full(); i++) {
            readSegment(segs.get(i), fromLsn, budget);
        }
        return budget.records();
    }

    private void readSegment(Segment seg, long fromLsn, ReadBudget budget) {
        long start = seg.offsetFor(fromLsn);
        long end = seg.size();
        try (FileChannel ch = FileChannel.open(seg.file(), StandardOpenOption.READ)) {
            FrameScanner scanner = new FrameScanner(ch, start, end);
            try {
                LogRecord r;
                while (!budget.full() && (r = scanner.next()) != null) {
                    if (r.lsn() >= fromLsn) {
                        budget.offer(r);
                    }
                }
            } catch (FrameScanner.Corrupt e) {
                throw new LogStoreException(storeId + ": durable record at offset " + scanner.frameStart()
                        + " of " + seg.file() + " no longer reads back: " + e.getMessage(), e);
            }
        } catch (NoSuchFileException e) {
            LOG.debug("{}: stream {}: segment {} was truncated away during a read", storeId, name, seg.file());
        } catch (IOException e) {
            throw new LogStoreException(storeId + ": cannot read " + seg.file() + ": " + e, e);
        }
    }

    /** Collects records within a count and byte budget; always takes the first one offered. */
    private static final class ReadBudget {

        private final int maxRecords;
        private final long maxBytes;
        private final List<LogRecord> records = new ArrayList<>();
        private long bytes;
        private boolean full;

        ReadBudget(int maxRecords, long maxBytes) {
            this.maxRecords = maxRecords;
            this.maxBytes = maxBytes;
            this.full = maxRecords <= 0;
        }

        boolean full() {
            return full;
        }

        void offer(LogRecord r) {
            int size = r.encodedSize();
            if (!records.isEmpty() && bytes + size > maxBytes) {
                full = true;
                return;
            }
            records.add(r);
            bytes += size;
            full = records.size() >= maxRecords || bytes >= maxBytes;
        }

        List<LogRecord> records() {
            return records;
        }
    }
}
