package org.autodisk.node.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.protocol.ProtocolException;

/** Reads frames from a byte range of a segment file through a buffer, verifying each record. */
final class FrameScanner {

    private static final int BUFFER = 64 * 1024;

    private final FileChannel channel;
    private final long end;
    private byte[] buf = new byte[BUFFER];
    private long bufStart;
    private int bufLen;
    private long pos;
    private long frameStart;

    FrameScanner(FileChannel channel, long start, long end) {
        this.channel = channel;
        this.pos = start;
        this.bufStart = start;
        this.end = end;
    }

    /** Offset of the frame returned last (or of the bad frame after {@link Corrupt}). */
    long frameStart() {
        return frameStart;
    }

    /** Offset just past the last good frame. */
    long position() {
        return pos;
    }

    /**
     * Returns the next record.
     *
     * @return the record, or {@code null} at the end of the range
     * @throws Corrupt if the frame is incomplete or does not decode
     */
    LogRecord next() throws IOException, Corrupt {
        frameStart = pos;
        if (pos >= end) {
            return null;
        }
        if (!fill(Frames.HEADER)) {
            throw new Corrupt("incomplete length prefix (" + (end - pos) + " bytes)");
        }
        int off = (int) (pos - bufStart);
        int len = ByteBuffer.wrap(buf, off, Frames.HEADER).getInt();
        long left = end - pos - Frames.HEADER;
        if (len < Frames.MIN_RECORD || len > left) {
            throw new Corrupt("record length " + len + " with " + left + " bytes left: torn or corrupt");
        }
        if (!fill(Frames.HEADER + len)) {
            throw new Corrupt("file ends inside a record of " + len + " bytes");
        }
        off = (int) (pos - bufStart) + Frames.HEADER;
        LogRecord rec = decode(Arrays.copyOfRange(buf, off, off + len), len);
        pos += Frames.HEADER + len;
        return rec;
    }

    private static LogRecord decode(byte[] bytes, int len) throws Corrupt {
        LogRecord rec;
        try {
            rec = LogRecord.decode(bytes, 0);
        } catch (ProtocolException e) {
            throw new Corrupt(e.getMessage());
        }
        if (rec.encodedSize() != len) {
            throw new Corrupt("record decodes to " + rec.encodedSize() + " bytes, frame says " + len);
        }
        return rec;
    }

    /** Makes bytes {@code [pos, pos + n)} available in the buffer; false if the file ends before. */
    private boolean fill(int n) throws IOException {
        int off = (int) (pos - bufStart);
        if (bufLen - off >= n) {
            return true;
        }
        byte[] target = n > buf.length ? new byte[n] : buf;
        System.arraycopy(buf, off, target, 0, bufLen - off);
        buf = target;
        bufLen -= off;
        bufStart = pos;
        while (bufLen < n) {
            int want = (int) Math.min(buf.length - bufLen, end - (bufStart + bufLen));
            int got = want <= 0 ? -1 : channel.read(ByteBuffer.wrap(buf, bufLen, want), bufStart + bufLen);
            if (got < 0) {
                return false;
            }
            bufLen += got;
        }
        return true;
    }

    /** A frame that is incomplete or does not decode. */
    static final class Corrupt extends Exception {

        private static final long serialVersionUID = 1L;

        Corrupt(String message) {
            super(message);
        }
    }
}
