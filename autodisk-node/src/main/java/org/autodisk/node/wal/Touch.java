package org.autodisk.node.wal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** What one batch appends to one segment: the frames, their sparse index entries, and the size before. */
final class Touch {

    private final StreamWriter stream;
    private final Segment segment;
    private final boolean created;
    private final long sizeBefore;
    private final Map<Long, Long> index = new HashMap<>();
    private long lastIndexed;
    private long lastLsn;
    private byte[] buf = new byte[4096];
    private int len;
    private int records;

    Touch(StreamWriter stream, Segment segment, boolean created) {
        this.stream = stream;
        this.segment = segment;
        this.created = created;
        this.sizeBefore = segment.size();
        this.lastIndexed = segment.lastIndexedOffset();
    }

    void add(byte[] frame, long lsn) {
        long offset = end();
        if (offset - lastIndexed >= Segment.INDEX_INTERVAL) {
            index.put(lsn, offset);
            lastIndexed = offset;
        }
        if (buf.length - len < frame.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + frame.length));
        }
        System.arraycopy(frame, 0, buf, len, frame.length);
        len += frame.length;
        lastLsn = lsn;
        records++;
    }

    StreamWriter stream() {
        return stream;
    }

    Segment segment() {
        return segment;
    }

    boolean created() {
        return created;
    }

    long sizeBefore() {
        return sizeBefore;
    }

    /** The segment's size once this batch is written. */
    long end() {
        return sizeBefore + len;
    }

    ByteBuffer bytes() {
        return ByteBuffer.wrap(buf, 0, len);
    }

    int length() {
        return len;
    }

    int records() {
        return records;
    }

    long lastLsn() {
        return lastLsn;
    }

    Map<Long, Long> index() {
        return index;
    }
}
