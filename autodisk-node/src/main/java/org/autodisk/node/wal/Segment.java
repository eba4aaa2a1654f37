package org.autodisk.node.wal;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One segment file of a stream, named by its first LSN. Its published {@link #size()} and {@link #lastLsn()}
 * cover durable data only: readers never look past them. The write channel belongs to the writer thread.
 */
final class Segment {

    /** A sparse index entry (LSN to frame offset) is kept about every this many bytes. */
    static final long INDEX_INTERVAL = 64 * 1024;

    private static final String SUFFIX = ".log";

    private final Path file;
    private final long firstLsn;
    private final ConcurrentNavigableMap<Long, Long> sparse = new ConcurrentSkipListMap<>();
    private volatile long size;
    private volatile long lastLsn;

    /** Writer thread only: the open channel while this segment is written to. */
    FileChannel channel;

    /**
     * Writer thread only: the file's length while {@link #channel} is open, every byte past {@link #size()}
     * being zero (preallocated); -1 if not known, and the file is then cut to its size before the next write.
     */
    long allocated = -1;

    Segment(Path file, long firstLsn) {
        this.file = file;
        this.firstLsn = firstLsn;
    }

    static String fileName(long firstLsn) {
        return String.format("%020d%s", firstLsn, SUFFIX);
    }

    /**
     * Parses a segment file name.
     *
     * @return the first LSN, or -1 if the name is not a segment file's
     */
    static long parseName(Path file) {
        String name = file.getFileName().toString();
        if (name.length() != 20 + SUFFIX.length() || !name.endsWith(SUFFIX)) {
            return -1;
        }
        for (int i = 0; i < 20; i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return -1;
            }
        }
        return Long.parseLong(name.substring(0, 20));
    }

    Path file() {
        return file;
    }

    long firstLsn() {
        return firstLsn;
    }

    long size() {
        return size;
    }

    long lastLsn() {
        return lastLsn;
    }

    /** Offset of the last indexed frame, or a negative value if nothing is indexed. */
    long lastIndexedOffset() {
        Map.Entry<Long, Long> last = sparse.lastEntry();
        return last == null ? -INDEX_INTERVAL : last.getValue();
    }

    /** Where to start scanning for an LSN: the offset of the last indexed frame at or before it. */
    long offsetFor(long lsn) {
        Map.Entry<Long, Long> e = sparse.floorEntry(lsn);
        return e == null ? 0 : e.getValue();
    }

    /**
     * Publishes durable data: size and last LSN first, then the index entries, so that a reader that sees an
     * index entry also sees a size covering it.
     */
    void publish(long newSize, long newLastLsn, Map<Long, Long> index) {
        size = newSize;
        lastLsn = newLastLsn;
        sparse.putAll(index);
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
